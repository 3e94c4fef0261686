"""What the test classes share: the seed they load, the named users, one test per case.

Tests of a feature live in one module, in Django `TestCase` classes: a class loads its data once
(the seed's fixtures, or rows built in `setUpTestData`) and every test rolls back what it
changes. pytest's `parametrize` does not reach methods of such classes, so `parametrize` here
writes a method out once per case instead: each case is a test of its own, as it would be for
a function.
"""

import re
from collections.abc import Callable, Iterable, Sequence

from django.contrib.auth import get_user_model
from django.test import Client, TestCase

from tests.seeded_rows import load_seed


class SeededTestCase(TestCase):
    """The four real profiles, as `make run` loads them, once for the whole class: loaded by
    `loaddata` for the run's first such class, and copied from its rows for the others
    (tests/seeded_rows.py). Where TestCase loads a class's `fixtures`: right after entering
    the class's transaction (`_enter_atomics`, which each test calls again for its own),
    before the class's `setUpTestData`."""

    _seed_due = False

    @classmethod
    def setUpClass(cls):
        cls._seed_due = True
        try:
            super().setUpClass()
        finally:
            cls._seed_due = False

    @classmethod
    def _enter_atomics(cls):
        atomics = super()._enter_atomics()
        if cls._seed_due:  # the class's transaction, not a test's
            cls._seed_due = False
            try:
                for alias in cls._databases_names(include_mirrors=False):
                    load_seed(alias)
            except Exception:
                cls._rollback_atomics(atomics)
                raise
        return atomics


def make_editor():
    """An editor: a superuser, signed in with `client.force_login` (no password to hash)."""
    return get_user_model().objects.create_superuser("editor", "editor@example.org")


class EditorSignedIn:
    """Mixed into a TestCase: an editor, made once for the class, signed in for every test."""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.editor = make_editor()

    def setUp(self):
        super().setUp()
        self.client.force_login(self.editor)


def assert_a_draft_is_hidden_from_visitors_and_previewed_by_editors(test: TestCase, draft) -> None:
    """A draft's page is a 404 for an anonymous visitor, and a preview marked as such for an
    editor, who reaches it through "view on site"."""
    url = draft.get_absolute_url()
    assert Client().get(url).status_code == 404
    test.client.force_login(make_editor())
    preview = test.client.get(url)
    assert preview.status_code == 200
    assert "Only staff see this page" in preview.content.decode()


class parametrize:
    """`@parametrize("query, ignored", [...], ids=[...])` on a TestCase method does what
    pytest's mark does for a function: one test method per case, named after the method and the
    case's id (`test_a_page_that_does_not_exist_is_a_404__negative`).

    The methods are written when the class is made (`__set_name__`), so subclasses inherit
    them: a class of many rows can reuse the tests of its parent class of few. pytest's own mark
    does not reach unittest classes, so this stays (docs/decisions/test-parametrize.md).
    """

    def __init__(
        self,
        argnames: str | Sequence[str],
        argvalues: Iterable,
        *,
        ids: Sequence[str] | None = None,
    ) -> None:
        if isinstance(argnames, str):
            argnames = argnames.split(",")
        self.names = [name.strip() for name in argnames if name.strip()]
        self.cases = [values if len(self.names) > 1 else (values,) for values in list(argvalues)]
        if ids is not None and len(ids) != len(self.cases):
            raise ValueError(f"{len(ids)} ids for {len(self.cases)} cases")
        self.ids = list(ids) if ids is not None else [self.case_id(case) for case in self.cases]
        self.method: Callable | None = None

    def __call__(self, method: Callable) -> "parametrize":
        self.method = method
        return self

    def case_id(self, case: tuple) -> str:
        parts = [
            str(value)
            if isinstance(value, str | int | float | bool) or value is None
            else f"{name}{self.cases.index(case)}"
            for name, value in zip(self.names, case, strict=True)
        ]
        return "-".join(parts)

    def __set_name__(self, owner: type, name: str) -> None:
        if self.method is None:
            raise TypeError(f"@parametrize on {owner.__name__}.{name} decorates nothing")
        delattr(owner, name)
        seen: set[str] = set()
        for index, (case_id, case) in enumerate(zip(self.ids, self.cases, strict=True)):
            suffix = re.sub(r"\W+", "_", case_id, flags=re.ASCII).strip("_") or str(index)
            test_name = f"{name}__{suffix}"
            if test_name in seen:
                test_name = f"{test_name}_{index}"
            seen.add(test_name)
            setattr(owner, test_name, self.case_method(owner, test_name, case))

    def case_method(self, owner: type, test_name: str, case: tuple) -> Callable:
        method = self.method
        arguments = dict(zip(self.names, case, strict=True))

        def test(self_):
            return method(self_, **arguments)

        test.__name__ = test_name
        test.__qualname__ = f"{owner.__qualname__}.{test_name}"
        test.__doc__ = method.__doc__
        if marks := getattr(method, "pytestmark", None):
            test.pytestmark = marks  # type: ignore[attr-defined]
        return test
