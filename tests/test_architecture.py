"""The shape of the code (docs/architecture.md): imports point one way, so every module can be
read (and changed) after the ones it builds on, and one place knows each game.

- The apps depend one way: core ← accounts ← games ← social ← ladder ← tournaments
  (CONTRIBUTING.md § Hooks).
  What a lower app needs from a higher one goes through a hook named in the settings.
- No module circle; no function-local import in a service; no module over 400 lines outside
  migrations, tests and a game's own package.
- Outside a game's own package (``games/rules/<game>/``), its table renderer
  (``static/js/table/games/<game>.js``) and the help pages (``templates/help/``), nothing asks
  which game it is: no Python module compares a value with a game's id or matches on it, or
  tells games apart by the module of a state's class; no browser module and no other template
  names a game. Everything else reads the game's ``GameSpec``, and the game columns hold any
  registered game (a new game needs no migration).

The import and branch checks walk the source (AST and a grep), no import executed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django import forms
from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.template.loader import get_template

from games.models import Match, Table
from games.rules import game_specs
from ladder.models import Rating, RatingChange

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("config", "core", "accounts", "games", "ladder", "social", "tournaments")
# What each app may import (``config`` wires them all and is imported by none). Social and the
# ladder both stand on games; the ladder's profile page shows social's reputation, so the ladder
# may import social and social never the ladder.
MAY_IMPORT = {
    "core": {"core"},
    "accounts": {"core", "accounts"},
    "games": {"core", "accounts", "games"},
    "social": {"core", "accounts", "games", "social"},
    "ladder": {"core", "accounts", "games", "social", "ladder"},
    "tournaments": {"core", "accounts", "games", "social", "ladder", "tournaments"},
}
SERVICES = sorted(
    path
    for app in MAY_IMPORT
    for path in [*(ROOT / app).glob("services/*.py"), *(ROOT / app).glob("services.py")]
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                modules[_module_name(path)] = path
    return modules


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports, wherever in the file the import stands."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join([*base, node.module] if node.module else base)
            else:
                origin = node.module or ""
            # ``from package import module`` imports the module; ``from module import name``
            # the module itself.
            targets = [
                f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in known else origin
                for alias in node.names
            ]
        else:
            continue
        found.update(target for target in targets if target in known and target != name)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return groups


def _graph() -> dict[str, set[str]]:
    modules = _project_modules()
    known = set(modules)
    graph = {name: _imports(name, path, known) for name, path in modules.items()}
    # Importing ``games.services.moves`` first runs ``games/__init__`` and
    # ``games/services/__init__``; those edges are real but point only down, so the walk
    # leaves package parents out rather than report every package as its own cycle.
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(f"{t}.")}
    return graph


def test_the_walk_sees_a_cycle_when_there_is_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_walk_finds_the_project_imports():
    graph = _graph()
    assert "games.services.matches" in graph["games.services.moves"]
    assert "games.services.lobby" in graph["games.services.tables"]


def test_no_import_circle_anywhere_in_the_project():
    assert _cycles(_graph()) == []


def _upward(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Every import of a module of one app into an app it may not import."""
    return {
        (name, target)
        for name, targets in graph.items()
        if name.split(".")[0] in MAY_IMPORT
        for target in targets
        if target.split(".")[0] not in MAY_IMPORT[name.split(".")[0]]
    }


def _local_imports(path: Path) -> list[int]:
    tree = ast.parse(path.read_text())
    return [
        node.lineno
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]


def test_the_walk_sees_an_import_against_the_graph_wherever_it_stands(tmp_path):
    module = tmp_path / "quiet.py"
    module.write_text("def late():\n    from social.services import blocks\n")
    known = {"games.quiet", "social.services", "social.services.blocks"}
    imports = _imports("games.quiet", module, known)
    assert imports == {"social.services.blocks"}
    assert _upward({"games.quiet": imports}) == {("games.quiet", "social.services.blocks")}
    assert _upward({"social.x": {"games.models", "ladder.y"}}) == {("social.x", "ladder.y")}
    assert _local_imports(module) == [2]


def test_the_apps_depend_one_way():
    """core imports no app; accounts only core; games only core and accounts; social and the
    ladder core, accounts and games, and the ladder social; config is imported by none."""
    assert _upward(_graph()) == set()


@pytest.mark.parametrize("path", SERVICES, ids=lambda path: str(path.relative_to(ROOT)))
def test_services_import_at_the_top(path):
    """A function-local import in a service hides a dependency (and usually a circle)."""
    assert _local_imports(path) == [], f"function-local imports at lines {_local_imports(path)}"


@pytest.mark.parametrize(
    "path", sorted((ROOT / "games" / "services").glob("*.py")), ids=lambda path: path.name
)
def test_games_services_stay_short(path):
    assert len(path.read_text().splitlines()) <= 360


# --- One place knows a game (issue 27 § 1) ------------------------------------------------------

SCANNED = (*PACKAGES, "bench", "scripts")
GAME_IDS = frozenset(spec.id for spec in game_specs())  # the toy game's too (tests/toy_game)
STRING_TESTS = ("startswith", "endswith")


def _game_id(node: ast.AST) -> bool:
    """A game id as a literal, alone or in a tuple, list or set of literals."""
    if isinstance(node, ast.Constant):
        return node.value in GAME_IDS
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_game_id(item) for item in node.elts)
    return False


def branches_on_a_game(source: str, filename: str = "<source>") -> list[str]:
    """Each place in ``source`` that tells one game from another, as ``line n: what``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Compare) and any(
            _game_id(side) for side in (node.left, *node.comparators)
        ):
            found.append(f"line {node.lineno}: compares with a game id")
        elif isinstance(node, ast.MatchValue) and _game_id(node.value):
            found.append(f"line {node.lineno}: matches a game id")
        elif isinstance(node, ast.Attribute) and node.attr == "__module__":
            found.append(f"line {node.lineno}: reads __module__ (which game a state is)")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in STRING_TESTS
            and any(_game_id(argument) for argument in node.args)
        ):
            found.append(f"line {node.lineno}: {node.func.attr} a game id")
    return found


def _outside_the_games(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return "migrations" not in parts and not (
        parts[:2] == ("games", "rules") and len(parts) > 3 and parts[2] in GAME_IDS
    )


MODULES = sorted(
    path
    for package in SCANNED
    for path in (ROOT / package).rglob("*.py")
    if _outside_the_games(path)
)
IDS = "|".join(sorted(GAME_IDS))
JS_GAME_ID = re.compile(rf"""(["'`])({IDS})\1""")  # as a string: "…", '…' or `…`
TEMPLATE_GAME_ID = re.compile(rf"\b({IDS})\b")


def test_the_scan_sees_every_kind_of_branch_on_a_game() -> None:
    source = (
        'if game == "japanese_joker": pass\n'
        'ok = view["game"] in ("classic_joker", "x")\n'
        'match name:\n    case "japanese_whist": pass\n'
        'if type(state).__module__.endswith("japanese_joker"): pass\n'
        'GAMES = {"japanese_joker": 1}\n'  # data keyed by a game is not a branch
        "if game == spec.id: pass\n"
    )
    assert sorted(branches_on_a_game(source)) == [
        "line 1: compares with a game id",
        "line 2: compares with a game id",
        "line 4: matches a game id",
        "line 5: endswith a game id",
        "line 5: reads __module__ (which game a state is)",
    ]


def test_the_scan_covers_the_project_and_leaves_the_games_out() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in MODULES}
    assert {"games/replay.py", "games/bots/easy.py", "bench/engine.py"} <= names
    assert not any(name.startswith("games/rules/japanese_joker/") for name in names)
    assert "games/rules/registry.py" in names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_outside_a_game_branches_on_a_game(path: Path) -> None:
    assert branches_on_a_game(path.read_text(encoding="utf-8"), str(path)) == []


def test_no_browser_module_names_a_game_but_its_renderer() -> None:
    named = {}
    for path in sorted((ROOT / "static" / "js").rglob("*.js")):
        games = set(JS_GAME_ID.findall(path.read_text(encoding="utf-8")))
        games = {game for _quote, game in games if path.name != f"{game}.js"}
        if games:
            named[path.relative_to(ROOT).as_posix()] = sorted(games)
    assert named == {}


def test_no_template_names_a_game_but_the_help_pages() -> None:
    named = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "templates").rglob("*.html")
        if "help" not in path.relative_to(ROOT / "templates").parts
        and TEMPLATE_GAME_ID.search(path.read_text(encoding="utf-8"))
    }
    assert named == set()


@pytest.mark.parametrize("spec", game_specs(), ids=lambda spec: spec.id)
def test_every_game_brings_its_renderer_and_its_help_page(spec) -> None:
    """What a spec names is there: the renderer among the static files, with a default export,
    and the English help page (the other languages fall back to it)."""
    renderer = finders.find(spec.renderer)
    assert renderer, spec.renderer
    assert "export default" in Path(renderer).read_text(encoding="utf-8")
    get_template(f"help/en/{spec.help_slug}.html")
    assert spec.seats == spec.engine.num_players and spec.engine.name == spec.id


@pytest.mark.parametrize("model", [Table, Match, Rating, RatingChange], ids=lambda m: m.__name__)
def test_a_game_column_takes_the_registrys_games_and_no_other(model) -> None:
    field = model._meta.get_field("game")
    for spec in game_specs():
        assert field.clean(spec.id, None) == spec.id
    with pytest.raises(ValidationError):
        field.clean("poker", None)
    # In migrations a plain column with no choices: nothing there changes with the games.
    _name, path, _args, kwargs = field.deconstruct()
    assert path == "django.db.models.CharField" and kwargs == {"max_length": 20}
    offered = field.formfield()  # the admin's and any model form's: a select of the registry
    assert isinstance(offered, forms.ChoiceField) and isinstance(offered.widget, forms.Select)
    assert [value for value, _title in offered.choices] == [spec.id for spec in game_specs()]


def test_no_module_over_400_lines_but_the_games_own():
    """A long module is several modules that have not been named yet. The engines of the games
    (one rules text each) are the exception."""
    long = {
        path.relative_to(ROOT).as_posix(): length
        for path in MODULES
        if (length := len(path.read_text(encoding="utf-8").splitlines())) > 400
    }
    assert long == {}
