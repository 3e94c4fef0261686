"""The seeded profiles show the advisors and collaborators their texts name, and the seeded
site, which has no research group, offers no Groups page."""

from tests.cases import SeededTestCase


def section(html: str, heading_id: str) -> str:
    """The text of the profile section whose heading has `heading_id`."""
    start = html.index(f'id="{heading_id}"')
    return html[start : html.index("</section>", start)]


class SeededDepartmentProfileTests(SeededTestCase):
    def test_hang_zhus_profile_says_he_was_advised_by_xin_jin_during_his_phd(self):
        html = self.client.get("/people/hang-zhu/").content.decode()
        assert '<p class="profile__advisors">Advised by <bdi>Xin Jin</bdi></p>' in html
        # Said once, under his name: no "Advisors" section repeats it (the years and the degree
        # are his education entry's).
        assert 'id="advisors"' not in html
        assert html.count("profile__advisors") == 1

    def test_haoran_zhangs_profile_names_his_two_co_advisors_in_printed_order(self):
        html = self.client.get("/people/haoran-zhang/").content.decode()
        assert (
            "Advised by <bdi>Vincent Liu</bdi> (co-advisor) and <bdi>Sebastian Angel</bdi> (co-advisor)</p>"
            in html
        )

    def test_zerui_wangs_profile_names_his_supervisors_and_close_collaborators(self):
        response = self.client.get("/people/zerui-wang/")
        html = response.content.decode()
        assert (
            "Advised by <bdi>Dahua Lin</bdi> (supervisor) and <bdi>Rong Chen</bdi> (supervisor)</p>"
            in html
        )
        assert 'id="advisors"' not in html
        close = section(html, "close-collaborators")
        assert close.index("Peng Sun") < close.index("Qinghao Hu")

    def test_a_profile_counts_collaborators_outside_the_lab_by_shared_paper(self):
        zerui = self.client.get("/people/zerui-wang/").context["external_coauthors"]
        assert [(record.name, record.shared) for record in zerui] == [
            ("Peng Sun", 7),
            ("Qinghao Hu", 7),
            ("Dahua Lin", 4),
        ]  # not Xin Jin: no source says the survey's Xin Jin is Hang Zhu's advisor
        hang = self.client.get("/people/hang-zhu/").context["external_coauthors"]
        assert [(record.name, record.shared) for record in hang] == [("Xin Jin", 8)]
        haoran = self.client.get("/people/haoran-zhang/").context["external_coauthors"]
        assert [(record.name, record.shared) for record in haoran] == [
            ("Vincent Liu", 5),
            ("Sebastian Angel", 4),
        ]

    def test_hao_zhang_has_no_department_sections(self):
        html = self.client.get("/people/hao-zhang/").content.decode()
        for heading in ["advisors", "students", "close-collaborators", "collaborators", "groups"]:
            assert f'id="{heading}"' not in html

    def test_the_seeded_site_offers_no_groups_or_areas(self):
        home = self.client.get("/").content.decode()
        assert "/groups/" not in home
        assert self.client.get("/groups/").status_code == 404
        assert self.client.get("/areas/").status_code == 404
        listing = self.client.get("/publications/")
        assert set(listing.context["facets"]) == {"venue", "type", "author"}
        assert self.client.get("/people/").context["options"] == {}
