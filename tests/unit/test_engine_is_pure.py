import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "larp_app" / "rules"
FORBIDDEN = {"flask", "flask_sqlalchemy", "sqlalchemy", "werkzeug", "jinja2", "click"}


def imported_modules(path: Path) -> list[str]:
    package = list(path.relative_to(RULES.parent.parent).with_suffix("").parts[:-1])
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            names.append(".".join(base + ([node.module] if node.module else [])))
    return names


def test_the_rules_engine_imports_no_web_database_or_app_module():
    offending = [
        f"{path.name} imports {name}"
        for path in RULES.rglob("*.py")
        for name in imported_modules(path)
        if name.split(".")[0] in FORBIDDEN
        or (name.startswith("larp_app") and not name.startswith("larp_app.rules"))
    ]
    assert offending == []


def test_the_purity_check_sees_relative_imports_that_leave_the_engine(tmp_path):
    sample = RULES / "fold.py"
    names = imported_modules(sample)
    assert "larp_app.rules.entries" in names


RULESETS = RULES.parent / "rulesets"


def test_the_rule_system_packages_import_only_the_engine():
    offending = []
    for path in RULESETS.rglob("*.py"):
        package = list(path.relative_to(RULES.parent.parent).with_suffix("").parts[:-1])
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                names = [".".join(base + ([node.module] if node.module else []))]
            else:
                continue
            offending += [
                f"{path.relative_to(RULESETS)} imports {name}"
                for name in names
                if name.split(".")[0] in FORBIDDEN
                or (name.startswith("larp_app") and not name.startswith("larp_app.rules"))
            ]
    assert list(RULESETS.rglob("*.py"))
    assert offending == []
