"""What the production server refuses before the site's views run comes back in the site's shape: the API's
JSON error body under /api/, the site's error page elsewhere. Headers over the site's limits are answered by the
site itself (431, from cardsite.middleware); gunicorn's own refusals (a request line over its maximum, headers
far over the site's limits, a NUL in a header) by the site's worker class (cardsite.gunicorn_worker).

Raw sockets: an HTTP library would refuse to send most of these requests."""

from __future__ import annotations

import json
import socket

import pytest

from .servers import production_site


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with production_site(tmp_path_factory.mktemp("error-shapes"), workers=1, threads=2) as running:
        yield running


def raw(site, head: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``head`` (a request line and headers, no body) and read the whole answer."""
    host, port = site.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(head)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    top, _, body = answer.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    if headers.get("transfer-encoding") == "chunked":
        body = dechunked(body)
    return int(lines[0].split()[1]), headers, body


def dechunked(body: bytes) -> bytes:
    out = b""
    while body:
        size, _, body = body.partition(b"\r\n")
        length = int(size.split(b";")[0], 16)
        if length == 0:
            break
        out, body = out + body[:length], body[length + 2 :]
    return out


def request(path: str, *headers: str, line: str | None = None) -> bytes:
    first = line or f"GET {path} HTTP/1.1"
    return "\r\n".join([first, "Host: 127.0.0.1", "Connection: close", *headers, "", ""]).encode("latin-1")


def api_error(answer, status: int, code: str) -> dict:
    got, headers, body = answer
    assert got == status, body[:300]
    assert headers["content-type"].startswith("application/json"), body[:300]
    error = json.loads(body)
    assert error["code"] == code and error["detail"] and error["errors"] == {}
    return error


def page_error(answer, status: int) -> str:
    got, headers, body = answer
    assert got == status, body[:300]
    assert headers["content-type"].startswith("text/html"), body[:300]
    page = body.decode()
    assert 'class="error-page"' in page  # the site's error page, not gunicorn's
    return page


def test_a_header_over_the_sites_limit_is_the_sites_431(site):
    error = api_error(raw(site, request("/api/games/", "X-Big: " + "a" * 10_000)), 431, "headers_too_large")
    assert "8,190" in error["detail"]


def test_a_header_over_gunicorns_limit_is_a_431_in_the_sites_shape_too(site):
    api_error(raw(site, request("/api/games/", "X-Big: " + "a" * 20_000)), 431, "headers_too_large")
    page_error(raw(site, request("/", "X-Big: " + "a" * 20_000, "Accept-Language: en")), 431)


def test_too_many_headers_are_the_sites_431(site):
    many = [f"X-Field-{n}: 1" for n in range(110)]
    api_error(raw(site, request("/api/games/", *many)), 431, "headers_too_large")
    page_error(raw(site, request("/", *many)), 431)


def test_a_request_line_over_the_maximum_is_a_json_414(site):
    error = api_error(
        raw(site, request("", line=f"GET /api/cards/?q={'a' * 9000} HTTP/1.1")), 414, "request_line_too_long"
    )
    assert "8,190" in error["detail"]


def test_a_nul_in_a_header_is_a_400_in_the_sites_shape(site):
    api_error(raw(site, request("/api/games/", "X-Bad: a\x00b")), 400, "bad_request")
    page = page_error(raw(site, request("/", "X-Bad: a\x00b")), 400)
    assert 'lang="ja"' in page  # the site's default language: the headers could not be read


def test_ordinary_requests_are_untouched(site):
    status, headers, _body = raw(site, request("/api/games/", "X-Fine: " + "a" * 4000))
    assert status == 200 and headers["content-type"].startswith("application/json")
