from base.sitemaps import PublishedSitemap
from projects.models import Project


class ProjectSitemap(PublishedSitemap):
    model = Project
