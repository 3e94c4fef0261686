"""The members' permission group through the migrations: people 0011 grants the group its
views under its first name, "Members"; the base's 0009 (app label directory) renames it "Member
logins". Run the other way round, the rename would find no group and the grant would make a
second "Members" group that no login is put in: members could no longer choose research areas
or outside co-authors. The base's migration depends on the department's, so the order is the
graph's, not the luck of the planner."""

import pytest
from django.contrib.auth.models import Group
from django.db.migrations.loader import MigrationLoader

from base.roles import MEMBER_LOGINS_GROUP

GRANT = ("people", "0011_department_roles")
RENAME = ("directory", "0009_lab_settings_and_member_roles")


def test_the_rename_of_the_members_group_comes_after_the_grant_in_the_migration_graph():
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    assert GRANT in graph.forwards_plan(RENAME)


@pytest.mark.django_db
def test_a_fresh_database_gives_member_logins_the_views_the_department_roles_grant():
    members = Group.objects.get(name=MEMBER_LOGINS_GROUP)
    held = set(
        members.permissions.filter(content_type__app_label="people").values_list(
            "codename", flat=True
        )
    )
    assert {"view_researcharea", "view_externalperson"} <= held
    assert not Group.objects.filter(name="Members").exists()
