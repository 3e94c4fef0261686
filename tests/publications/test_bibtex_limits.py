"""BibTeX import bounds: each refused before expansion or decoding, naming the entry and its
line, in the review, the admin and the command alike."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from publications.bibtex import limits as bibtex_limits
from publications.bibtex import parse_bibtex
from publications.models import Publication

pytestmark = pytest.mark.django_db

URL = reverse("admin:publications_publication_import_bibtex")
# The file from the report: 5 KB, one 1,000-byte @string used 1,000 times in a title.
STRING_BOMB = (
    '@string{s = "' + "x" * 1000 + '"}\n\n'
    "@article{bomb,\n  title = " + " # ".join(["s"] * 1000) + "\n}\n"
)


def problems(text):
    return [str(problem) for problem in parse_bibtex(text).problems]


def too_large(title: str) -> str:
    """1,100 entries of 2,023 bytes each: the 2 MiB mark (2,097,152) falls in the 1,037th."""
    return "".join(f"@misc{{k{number:04}, title={{{title}}}}}\n" for number in range(1100))


def nested(depth):
    return "{" * depth + "x" + "}" * depth


def test_a_string_used_a_thousand_times_is_refused_before_it_is_expanded():
    bibliography = parse_bibtex(STRING_BOMB)
    assert bibliography.entries == ()
    assert [str(problem) for problem in bibliography.problems] == [
        "Line 3, entry “bomb”: the field title becomes 1,000,000 characters long once its "
        "@string references are expanded; at most 20,000 are read."
    ]


def test_ten_thousand_nested_braces_in_author_are_refused_not_a_recursion_error():
    text = (
        "@article{fine, title={Fine}}\n@article{deep, title={T},\n author={"
        + nested(10_000)
        + "}}\n"
    )
    assert problems(text) == [
        "Line 2, entry “deep”: the field author nests braces 10,001 deep; at most 20 levels are read."
    ]


def test_an_entry_with_two_thousand_authors_is_read_whole():
    names = " and ".join(f"Author{number:04} Collaborator" for number in range(2000))
    text = f"@article{{big, title={{Observation}}, year=2016, author={{{names}}}}}\n"
    assert len(names) > bibtex_limits.MAX_FIELD_CHARACTERS
    assert problems(text) == []
    (entry,) = parse_bibtex(text).entries
    assert len(entry.authors) == 2000
    assert entry.authors[-1] == "Author1999 Collaborator"


def test_a_list_of_names_longer_than_its_own_bound_is_refused():
    names = "A " * (bibtex_limits.MAX_NAME_LIST_CHARACTERS // 2 + 1)
    assert problems(f"@article{{huge, title={{T}}, author={{{names}}}}}\n") == [
        "Line 1, entry “huge”: the field author is 200,002 characters long; at most 200,000 "
        "are read."
    ]


def test_nesting_deeper_than_the_bound_is_refused_and_the_bound_itself_is_read():
    deep = bibtex_limits.MAX_BRACE_DEPTH + 1
    text = (
        f"@article{{ok, title={{T}}, author={{{nested(bibtex_limits.MAX_BRACE_DEPTH - 1)}}}}}\n"
        f"@article{{deep, title={{T}}, author={{{nested(5000)}}}}}\n"
        f"@article{{just, title={{{nested(deep - 1)}}}}}\n"
    )
    assert problems(text) == [
        "Line 2, entry “deep”: the field author nests braces 5,001 deep; at most 20 levels are read.",
        f"Line 3, entry “just”: the field title nests braces {deep} deep; at most 20 levels are read.",
    ]
    assert [entry.key for entry in parse_bibtex(text).entries] == ["ok"]


def test_a_field_longer_than_the_bound_is_refused():
    text = (
        "@article{ok, title={T}}\n\n@article{long, title={T}, abstract={" + "a " * 10_001 + "}}\n"
    )
    assert problems(text) == [
        "Line 3, entry “long”: the field abstract is 20,002 characters long; at most 20,000 are read."
    ]


def test_a_key_longer_than_the_bound_is_refused():
    key = "k" * 201
    assert problems(f"@article{{{key}, title={{T}}}}") == [
        f"Line 1, entry “{key[:200]}”: the key is 201 characters long; at most 200 are read."
    ]


def test_more_entries_than_the_bound_are_refused_naming_the_first_one_past_it():
    count = bibtex_limits.MAX_ENTRIES + 1
    text = "\n".join(f"@misc{{k{number}, title={{T}}}}" for number in range(count))
    bibliography = parse_bibtex(text)
    assert bibliography.entries == ()
    assert [str(problem) for problem in bibliography.problems] == [
        f"Line {count}, entry “k{count - 1}”: the file has 25,001 entries; an import reads at "
        "most 25,000, and this is the first one past that. Split the file."
    ]


def test_expansion_of_the_whole_file_is_bounded_and_names_where_it_passes():
    value = "y" * 19_000
    entries = "\n".join(f"@misc{{k{number}, title={{T{number}}}, note=s}}" for number in range(500))
    bibliography = parse_bibtex(f'@string{{s = "{value}"}}\n{entries}\n')
    # 8 MiB is 441 notes of 19,000 characters and some titles: the 442nd entry passes it.
    assert [str(problem) for problem in bibliography.problems] == [
        "Line 443, entry “k441”: with this entry, @string expansion makes the file's fields "
        "longer than 8,388,608 characters together; it and the entries after it are not read. "
        "Use fewer @string references, or split the file."
    ]
    assert len(bibliography.entries) == 441


def test_distinct_latex_markup_is_bounded():
    def soup(entry):
        return "".join(f"\\m{entry}x{{{number}}}" for number in range(1300))

    text = "\n".join(
        f"@misc{{k{entry}, title={{T}}, note={{{soup(entry)}}}}}" for entry in range(20)
    )
    assert problems(text) == [
        "Line 17, entry “k16”: with this entry, the file holds more than 200,000 characters of "
        "distinct LaTeX markup to decode; it and the entries after it are not read. Split the "
        "file, or write accents as Unicode."
    ]


def test_text_over_two_megabytes_is_refused_naming_where_the_limit_falls():
    [problem] = problems(too_large("é" * 1000))
    assert problem.startswith(
        "Line 1037, entry “k1036”: the file is 2,225,300 bytes, larger than 2 MB"
    )


# The admin and the command say the same --------------------------------------------------------


def test_the_admin_lists_a_bound_by_line_and_key_and_offers_no_confirm(editor_client):
    upload = SimpleUploadedFile("bomb.bib", STRING_BOMB.encode())
    response = editor_client.post(URL, {"file": upload, "text": ""})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Line 3, entry “bomb”: the field title becomes 1,000,000 characters long" in html
    assert 'name="confirm"' not in html


def test_the_admin_refuses_nested_braces_with_a_message_not_a_500(editor_client):
    text = "@article{deep, title={T}, author={" + nested(10_000) + "}}\n"
    response = editor_client.post(URL, {"text": text})
    assert response.status_code == 200
    assert (
        "Line 1, entry “deep”: the field author nests braces 10,001 deep"
        in response.content.decode()
    )


def test_an_upload_over_two_megabytes_is_refused_with_its_line(editor_client):
    upload = SimpleUploadedFile("big.bib", too_large("x" * 2000).encode())
    response = editor_client.post(URL, {"file": upload, "text": ""})
    assert response.status_code == 400
    assert "Line 1037, entry “k1036”: the file is 2,225,300 bytes" in response.content.decode()


def test_the_command_prints_the_bound_and_stops_without_a_traceback(tmp_path):
    path = tmp_path / "hostile.bib"
    path.write_text(STRING_BOMB + "@article{deep, title={T}, author={" + nested(10_000) + "}}\n")
    output = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_bibtex", str(path), stdout=output)
    printed = output.getvalue()
    assert "problem: Line 3, entry “bomb”: the field title becomes 1,000,000 characters" in printed
    assert "problem: Line 6, entry “deep”: the field author nests braces 10,001 deep" in printed
    assert not Publication.objects.exists()


def test_the_command_refuses_a_file_over_two_megabytes(tmp_path):
    path = tmp_path / "big.bib"
    path.write_text(too_large("x" * 2000))
    output = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_bibtex", str(path), stdout=output)
    assert "problem: Line 1037, entry “k1036”: the file is 2,225,300 bytes" in output.getvalue()
