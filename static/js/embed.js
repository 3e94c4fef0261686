// Lists a lab's publications on another site's page, from this site's JSON API.
//
//   <div data-lab-publications="author=hang-zhu">
//     <a href="https://lab.example.org/publications/?author=hang-zhu">Publications</a>
//   </div>
//   <script src="https://lab.example.org/static/js/embed.js" async></script>
//
// data-lab-publications takes the query string of /publications/ (any of its filters);
// data-limit="10" shows only the newest ten. The element's own content (a link to the list)
// stays where this script does not run or the API cannot be reached. The list is built with
// DOM calls only (no HTML from the network), with the site's class names and no styles of its
// own, so it takes the host page's fonts and colours.
(function () {
  "use strict";

  var script = document.currentScript;
  if (!script || !window.fetch) return;
  var origin = new URL(script.src, document.baseURI).origin;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function link(href, className, text) {
    var node = element("a", className, text);
    node.href = href;
    return node;
  }

  function entry(paper) {
    var item = element("li", "publication");
    var title = element("p", "publication__title");
    title.appendChild(link(paper.url, "", paper.title));
    item.appendChild(title);

    var authors = element("p", "publication__authors");
    paper.authors.forEach(function (author, index) {
      if (index > 0) authors.appendChild(document.createTextNode(", "));
      authors.appendChild(
        author.url ? link(author.url, "member", author.name) : document.createTextNode(author.name)
      );
      if (author.equal_contribution) authors.appendChild(document.createTextNode("*"));
    });
    item.appendChild(authors);

    var meta = element("p", "publication__meta");
    var parts = [["publication__venue", paper.venue], ["publication__year", paper.year]];
    paper.awards.forEach(function (award) { parts.push(["badge badge--award", award]); });
    parts.forEach(function (part) {
      if (!part[1]) return;
      if (meta.childNodes.length) meta.appendChild(document.createTextNode(" "));
      meta.appendChild(element("span", part[0], String(part[1])));
    });
    item.appendChild(meta);
    return item;
  }

  function render(host, data, query, limit) {
    var papers = limit > 0 ? data.results.slice(0, limit) : data.results;
    var list = element("ol", "publication-list");
    papers.forEach(function (paper) { list.appendChild(entry(paper)); });
    var children = [list];
    if (data.count > papers.length) {
      var more = element("p", "lab-embed__more");
      more.appendChild(
        link(origin + "/publications/" + (query ? "?" + query : ""), "", "All " + data.count + " publications")
      );
      children.push(more);
    }
    host.replaceChildren.apply(host, children);
    host.setAttribute("data-lab-rendered", String(papers.length));
  }

  document.querySelectorAll("[data-lab-publications]").forEach(function (host) {
    if (host.hasAttribute("data-lab-rendered")) return;
    var query = (host.getAttribute("data-lab-publications") || "").replace(/^\?/, "");
    var limit = parseInt(host.getAttribute("data-limit") || "0", 10);
    host.setAttribute("aria-busy", "true");
    fetch(origin + "/api/publications/" + (query ? "?" + query : ""), {
      credentials: "omit",
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        if (!response.ok) throw new Error("The lab's API answered " + response.status);
        return response.json();
      })
      .then(function (data) { render(host, data, query, limit); })
      .catch(function (error) { host.setAttribute("data-lab-error", error.message); })
      .then(function () { host.removeAttribute("aria-busy"); });
  });
})();
