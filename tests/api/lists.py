"""The counts a publication list shows, read off the HTML page and off the API's answer in one
shape, so the tests can say they are equal."""


def facet_counts_of_the_page(response) -> dict[str, dict[str, int]]:
    """Its facets, its years (the From and To controls and the chart), the award checkbox."""
    counts = {
        name: {option.value: option.count for option in facet.options}
        for name, facet in response.context["facets"].items()
    }
    counts["year"] = {str(option.year): option.count for option in response.context["year_options"]}
    counts["award"] = {"1": response.context["award_count"]}
    return counts


def facet_counts_of_the_api(data: dict) -> dict[str, dict[str, int]]:
    counts = {
        name: {option["value"]: option["count"] for option in options}
        for name, options in data["facets"].items()
    }
    counts["award"] = {"1": data["award_count"]}
    return counts
