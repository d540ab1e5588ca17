"""The site's URLs plus the benchmarks' floors, through the same middleware: ``/__bare__/`` answers a constant
(benchmarks/load.py's ceiling), ``/__bare_page__/`` a minimal HTML page (benchmarks/pages.py's floor)."""

from django.http import HttpResponse
from django.urls import include, path

BARE_PAGE = """<!DOCTYPE html>
<html lang="ja">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>カードデータベース</title></head>
<body><h1>カードデータベース</h1>
<p>四つのカードゲームのカードを調べ、デッキを組み、一人回しで試す。これは速度の比較のための最小のページで、
スタイルシートもスクリプトも読み込まない。</p></body>
</html>
"""


def bare(request):
    return HttpResponse(b"ok", content_type="text/plain")


def bare_page(request):
    return HttpResponse(BARE_PAGE, content_type="text/html; charset=utf-8")


urlpatterns = [path("__bare__/", bare), path("__bare_page__/", bare_page), path("", include("cardsite.urls"))]
