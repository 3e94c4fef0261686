from django.http import HttpResponse


def index(request):
    return HttpResponse("")


def detail(request, slug):
    return HttpResponse("")
