"""Draw the site's icons from its brand glyph (templates/icons/cards.svg) into static/icons/.

    .venv/bin/python scripts/make_icons.py

Chromium (Playwright, a dev dependency) renders each SVG to PNG, so no imaging library is
needed. Run it again after the glyph or the felt colour changes, and commit what it writes:
icon.svg (the favicon), icon-192/512.png (the manifest's "any"), maskable-192/512.png (the
manifest's "maskable": full-bleed, the glyph inside the central safe circle of radius 40 %),
apple-touch-icon.png (iOS rounds the corners itself) and favicon.ico (16 and 32 px PNGs).
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
GLYPH = ROOT / "templates" / "icons" / "cards.svg"
OUT = ROOT / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"
FELT = "#0f5132"  # static/css/site.css --felt
# The glyph's own box in its 24-unit view is off centre: its middle is about (11, 12.7) and its
# farthest corner about 13.3 units from there, so 0.68 keeps it inside the maskable safe circle
# (9.6 units of 24).
GLYPH_CENTRE = (11.0, 12.7)


def icon_svg(*, rounded: bool, scale: float) -> str:
    """The glyph in white on felt, in a 24-unit view: a rounded tile or a full-bleed square."""
    inner = re.search(r"<svg[^>]*>(.*)</svg>", GLYPH.read_text(), re.S)
    assert inner, f"no <svg> in {GLYPH}"
    glyph = inner.group(1).replace("currentColor", "#fff")
    corner = ' rx="5"' if rounded else ""
    x, y = GLYPH_CENTRE
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">'
        f'<rect width="24" height="24"{corner} fill="{FELT}"/>'
        f'<g transform="translate(12 12) scale({scale}) translate({-x} {-y})">{glyph}</g>'
        "</svg>\n"
    )


def render(page, svg: str, size: int) -> bytes:
    page.set_viewport_size({"width": size, "height": size})
    sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
    page.set_content(f"<html><body style='margin:0'>{sized}</body></html>")
    return page.screenshot(
        omit_background=True, clip={"x": 0, "y": 0, "width": size, "height": size}
    )


def ico(images: dict[int, bytes]) -> bytes:
    """An .ico holding PNG images (read by every browser and by Windows since Vista)."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, data = b"", b""
    for size, png in images.items():
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png), offset)
        offset += len(png)
        data += png
    return header + entries + data


def main() -> None:
    tile = icon_svg(rounded=True, scale=0.8)
    maskable = icon_svg(rounded=False, scale=0.68)
    apple = icon_svg(rounded=False, scale=0.8)
    OUT.mkdir(exist_ok=True)
    (OUT / "icon.svg").write_text(tile)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(device_scale_factor=1)
        for size in (192, 512):
            (OUT / f"icon-{size}.png").write_bytes(render(page, tile, size))
            (OUT / f"maskable-{size}.png").write_bytes(render(page, maskable, size))
        (OUT / "apple-touch-icon.png").write_bytes(render(page, apple, 180))
        (OUT / "favicon.ico").write_bytes(
            ico({size: render(page, tile, size) for size in (16, 32)})
        )
        browser.close()


if __name__ == "__main__":
    main()
