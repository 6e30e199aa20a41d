#!/usr/bin/env python
"""Django's command-line utility."""

import sys

from config.mode import use_default_settings


def main() -> None:
    use_default_settings()
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
