import os

from django.core.wsgi import get_wsgi_application

from config.serve import prepare_process

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
prepare_process()
