"""Reading the site's HTML: a small tree of its elements, and text with its whitespace squashed."""

from __future__ import annotations

import re
from html.parser import HTMLParser

UI_LANGUAGES = ["ja", "zh-hant", "en"]


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None = None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    @property
    def text(self) -> str:
        return "".join(child if isinstance(child, str) else child.text for child in self.children)

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def iter(self):
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        attrs = {name.replace("_", "-"): value for name, value in attrs.items()}
        return [
            node
            for node in self.iter()
            if (tag is None or node.tag == tag)
            and (cls is None or cls in node.classes)
            and all(node.attrs.get(name) == value for name, value in attrs.items())
        ]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node:
        found = self.find_all(tag, cls, **attrs)
        assert found, f"no <{tag or '*'}> with class={cls!r} {attrs} in the page"
        return found[0]


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {name: value or "" for name, value in attrs}, self.current)
        self.current.children.append(node)
        if tag not in _VOID:
            self.current = node

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(response) -> Node:
    builder = _TreeBuilder()
    builder.feed(response.content.decode(response.charset or "utf-8"))
    return builder.root


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def get(client, url: str, status: int = 200, **headers):
    response = client.get(url, headers=headers)
    assert response.status_code == status, f"{url}: {response.status_code}"
    return response
