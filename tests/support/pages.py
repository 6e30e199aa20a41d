"""Reading server-rendered pages as a person sees them."""

from __future__ import annotations

import re

_TEMPLATES = re.compile(r"<template\b.*?</template>", re.S)


def shown(html: str) -> str:
    """The page without its ``<template>`` elements: markup the scripts clone, never drawn."""
    return _TEMPLATES.sub("", html)
