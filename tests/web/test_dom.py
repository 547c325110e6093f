"""``patch`` (dom.js), the table's redraw: after each draw the page is exactly what ``fill``
(replace everything) would have made, and only the parts that changed are new elements.

Trees are random but seeded: nested elements from a small set of tags, attributes and texts,
some with a handler, drawn one after another as a table is drawn again and again.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from .servers import LiveServer

pytestmark = pytest.mark.integration

TAGS = ["div", "span", "section", "button"]
ATTRS = [{}, {"class": "a"}, {"class": "b"}, {"id": "x"}, {"data-v": "1"}, {"hidden": ""}]
TEXTS = ["one", "two", "three"]

# Draws each tree into two boxes, one by patch and one by fill; after each draw: whether the
# two are equal, and how many elements of the patched box survived from the draw before.
DRAW_JS = """async (trees) => {
  const { h, fill, patch } = await import('/web/dom.js');
  const build = (spec) => typeof spec === 'string' ? spec
    : h(spec.tag, { ...spec.attrs, ...(spec.handler ? { onclick: () => {} } : {}) },
        ...spec.children.map(build));
  const patched = document.createElement('div');
  const filled = document.createElement('div');
  const out = [];
  for (const tree of trees) {
    const before = new Set(patched.querySelectorAll('*'));
    patch(patched, tree.map(build));
    fill(filled, tree.map(build));
    const kept = [...patched.querySelectorAll('*')].filter((e) => before.has(e)).length;
    out.push([patched.isEqualNode(filled), kept]);
  }
  return out;
}"""

# A draw that changes one button's text and one plain element's text: the button (it has a
# handler) is drawn anew, the plain element is patched in place, the rest stays.
HANDLED_JS = """async () => {
  const { h, patch } = await import('/web/dom.js');
  const box = document.createElement('div');
  const draw = (label) => patch(box, [
    h('div', { class: 'plain' }, h('span', {}, label)),
    h('button', { onclick: () => {} }, label),
    h('p', {}, 'same'),
  ]);
  draw('one');
  const [plain, button, p] = box.children;
  draw('two');
  return [box.children[0] === plain, box.children[1] === button, box.children[2] === p,
          box.textContent];
}"""


def tree(rng: random.Random, depth: int) -> dict[str, Any] | str:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(TEXTS)
    return {
        "tag": rng.choice(TAGS),
        "attrs": rng.choice(ATTRS),
        "handler": rng.random() < 0.2,
        "children": [tree(rng, depth - 1) for _ in range(rng.randint(0, 3))],
    }


def mutated(rng: random.Random, spec: dict[str, Any] | str) -> dict[str, Any] | str:
    """The same tree with a few random parts changed, as a table drawn one event later."""
    if isinstance(spec, str) or rng.random() < 0.1:
        return tree(rng, 2) if rng.random() < 0.3 else spec
    children = [mutated(rng, child) for child in spec["children"]]
    if rng.random() < 0.05:
        children.append(tree(rng, 1))
    return {**spec, "children": children}


def test_patch_draws_what_fill_draws_and_keeps_what_did_not_change(
    page: Any, static_server: LiveServer
) -> None:
    rng = random.Random(7)
    draws: list[list[Any]] = []
    for _ in range(10):  # ten tables, each drawn 30 times
        current = [tree(rng, 4) for _ in range(4)]
        for _ in range(30):
            draws.append(current)
            current = [mutated(rng, spec) for spec in current]
    page.goto(static_server.url + "/web/config.json")
    results = page.evaluate(DRAW_JS, draws)
    assert all(equal for equal, _ in results)
    assert sum(kept for _, kept in results) > 0, "patch kept nothing: it is fill"


def test_an_element_with_a_handler_is_kept_only_when_identical(
    page: Any, static_server: LiveServer
) -> None:
    page.goto(static_server.url + "/web/config.json")
    plain_kept, button_kept, same_kept, text = page.evaluate(HANDLED_JS)
    assert (plain_kept, button_kept, same_kept) == (True, False, True)
    assert text == "twotwosame"


# A part built once and given to every draw until what it shows changes (konturlu's sheet):
# marked whole, it is taken whole, and given again it is still all there.
KEPT_PART_JS = """async () => {
  const { h, patch } = await import('/web/dom.js');
  const box = document.createElement('div');
  const part = (rows) => Object.assign(
    h('section', { class: 'sheet' }, rows.map((r) => h('p', {}, r))), { whole: true });
  const first = part(['a']);
  patch(box, [h('h1', {}, 'x'), first]);
  const second = part(['a', 'b']);
  patch(box, [h('h1', {}, 'x'), second]);
  patch(box, [h('h1', {}, 'y'), second]);
  return [box.querySelector('.sheet') === second, box.textContent];
}"""


def test_a_part_given_to_every_draw_stays_whole(page: Any, static_server: LiveServer) -> None:
    page.goto(static_server.url + "/web/config.json")
    assert page.evaluate(KEPT_PART_JS) == [True, "yab"]
