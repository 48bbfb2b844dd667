"""The user documentation in docs/ stays true to the code.

1. Every public name (cujit, cujit.cuda, cujit.cuda.random, cujit.types, cujit.errors, the
   objects the decorators return, DeviceNDArray, streams, events and devices, and every name the
   compiler knows in src/compiler/builtins.def) appears in docs/api.md.
2. Every environment variable read in python/cujit/**/*.py and src/**/*.{cpp,h} appears in
   docs/environment.md.
3. The Python blocks of docs/getting-started.md run, in order, on the simulator, and print what
   their `# prints:` comments say.
4. The relative links between the pages lead to files and headings that exist.

The names and variables are found in the code, not listed here, so a new one fails this test
until the page that should describe it does.
"""
import ast
import os
import pathlib
import re
import subprocess
import sys
import types

import pytest

import cujit
import cujit.errors
import cujit.types
from cujit import cuda
from cujit.cpu_ufunc import DUFunc, GUFunc

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PACKAGE = ROOT / "python" / "cujit"
SRC = ROOT / "src"


# -------------------------------------------------------------------------------------------
# 1. Public names in docs/api.md

def code_spans(markdown):
    """The text of every inline code span and fenced block of a Markdown page."""
    spans = re.findall(r"^ *```[^\n]*\n(.*?)^ *```", markdown, re.S | re.M)
    rest = re.sub(r"^ *```[^\n]*\n.*?^ *```", "", markdown, flags=re.S | re.M)
    return spans + re.findall(r"`([^`\n]+)`", rest)


def documented(name, spans):
    """True when `name` stands as a whole word (possibly after a dot) in some code span."""
    pattern = re.compile(r"(?<!\w)%s(?!\w)" % re.escape(name))
    return any(pattern.search(s) for s in spans)


def public(obj):
    """Public attribute names of a module, class or instance, modules left out."""
    return {n for n in dir(obj)
            if not n.startswith("_") and not isinstance(getattr(obj, n, None), types.ModuleType)}


def defined_in(path):
    """Public names a module binds at its top level itself (def, class, assignment), not imports."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return {n for n in names if not n.startswith("_")}


def compiler_names():
    """The Python names of the intrinsics and constants the compiler knows (builtins.def)."""
    text = (SRC / "compiler" / "builtins.def").read_text()
    names = re.findall(r'^BUILTIN\(\s*\w+\s*,\s*"([^"]+)"', text, re.M)
    names += re.findall(r'^CONSTANT\(\s*"([^"]+)"', text, re.M)
    assert len(names) > 100, "builtins.def was not read"
    return names


def spellings(name):
    """How the docs may write a compiler name: numpy.x as np.x too, numba.x as x."""
    out = [name]
    if name.startswith("numpy."):
        out.append("np." + name[len("numpy."):])
    if name.startswith("numba."):
        out.append(name[len("numba."):])
    return out


def sample_objects():
    """One object of each kind the decorators and cujit.cuda return, made on the simulator
    (none of them needs a compiler: they are typed lazily or at most typed, not built)."""
    was = cujit._core.simulator_enabled()
    cujit._core.set_simulator(True)
    try:
        def f(x, y):
            return x + y

        def g(a, out):
            out[0] = a[0]

        def k(a):
            a[0] = 1

        objects = {
            "CPUDispatcher": cujit.jit(f),
            "Dispatcher": cuda.jit(k),
            "DeviceFunction": cuda.jit(device=True)(f),
            "CUDAUFunc": cujit.vectorize(["float32(float32, float32)"], target="cuda")(f),
            "CUDAGUFunc": cujit.guvectorize(["void(float32[:], float32[:])"], "(n)->()",
                                            target="cuda")(g),
            "DUFunc": DUFunc(f),
            "GUFunc": GUFunc(g, "(n)->()"),
            "Reduce": cuda.reduce(f),
            "DeviceNDArray": cuda.device_array(4),
            "Stream": cuda.stream(),
            "Event": cuda.event(),
            "Device": cuda.get_current_device(),
            "Context": cuda.current_context(),
        }
        names = {kind: public(obj) for kind, obj in objects.items()}
    finally:
        cujit._core.set_simulator(was)
    # Protocols a DeviceNDArray implements for other libraries, spelt with underscores.
    names["DeviceNDArray"] |= {n for n in ("__array__", "__cuda_array_interface__", "__dlpack__",
                                           "__dlpack_device__") if hasattr(cuda.DeviceNDArray, n)}
    return names


def public_names():
    """(where, name) for every public name the API reference must mention."""
    found = []
    top = set(cujit.__all__) | public(cujit)
    found += [("cujit", n) for n in sorted(top)]
    found += [("cujit.cuda", n) for n in sorted(public(cuda) | {"random"})]
    found += [("cujit.cuda.random", n) for n in sorted(defined_in(PACKAGE / "cuda" / "random.py"))]
    found += [("cujit.types", n) for n in sorted(public(cujit.types))]
    found += [("cujit.errors", n) for n in sorted(cujit.errors.__all__)]
    for kind, names in sample_objects().items():
        found += [(kind, n) for n in sorted(names)]
    found += [("builtins.def", n) for n in compiler_names()]
    return found


def test_api_md_names_every_public_name():
    spans = code_spans((DOCS / "api.md").read_text())
    names = public_names()
    # The walk itself must find what is known to exist, or the check below proves nothing.
    for must in [("cujit", "jit"), ("cujit.cuda", "to_device"), ("DeviceNDArray", "copy_to_host"),
                 ("Dispatcher", "configure"), ("CPUDispatcher", "inspect_types"),
                 ("builtins.def", "cuda.atomic.add"), ("cujit.cuda.random", "xoroshiro128p_next")]:
        assert must in names, must
    missing = ["%s: %s" % (where, n) for where, n in names
               if not any(documented(s, spans) for s in spellings(n))]
    assert not missing, "docs/api.md does not mention:\n  " + "\n  ".join(missing)


# -------------------------------------------------------------------------------------------
# 2. Environment variables in docs/environment.md

_ENV_READS = {("os", "getenv"), ("environ", "get"), ("environ", "setdefault"), ("environ", "pop")}


def _is_env_read(call):
    """os.getenv(...), os.environ.get(...), environ.get(...), ..."""
    f = call.func
    if not isinstance(f, ast.Attribute):
        return False
    owner = f.value.attr if isinstance(f.value, ast.Attribute) else getattr(f.value, "id", None)
    return (owner, f.attr) in _ENV_READS


def python_env_vars(path):
    """Variables a Python file reads: literal arguments of os.environ.get / os.getenv /
    os.environ[...] / `in os.environ`, and of calls to helpers that pass a parameter to them."""
    tree = ast.parse(path.read_text())
    found = set()
    helpers = set()
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            params = {a.arg for a in fn.args.args} | ({fn.args.vararg.arg} if fn.args.vararg else set())
            for call in ast.walk(fn):
                if isinstance(call, ast.Call) and _is_env_read(call) and call.args:
                    arg = call.args[0]
                    # `os.environ.get(n)` with n a parameter, or a loop variable over one.
                    if isinstance(arg, ast.Name) and (arg.id in params or any(
                            isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
                            and loop.target.id == arg.id and isinstance(loop.iter, ast.Name)
                            and loop.iter.id in params for loop in ast.walk(fn))):
                        helpers.add(fn.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            literal = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if _is_env_read(node):
                if node.args and isinstance(node.args[0], ast.Constant):
                    found.add(node.args[0].value)  # the name; a second argument is the default
            elif getattr(node.func, "id", None) in helpers:
                found |= set(literal)
        elif isinstance(node, ast.Subscript) and getattr(node.value, "attr", None) == "environ":
            if isinstance(node.slice, ast.Constant):
                found.add(node.slice.value)
        elif isinstance(node, ast.Compare) and any(getattr(c, "attr", None) == "environ" for c in node.comparators):
            if isinstance(node.left, ast.Constant):
                found.add(node.left.value)
    return found


def cpp_env_vars(text):
    """Variables a C++ file reads: getenv("X"), a wrapper called as NAME("X") where NAME's body
    calls getenv on its parameter, and `for (const char* v : {"X", "Y"})` loops passing v to one."""
    found = set(re.findall(r'\bgetenv\(\s*"([^"]+)"\s*\)', text))
    wrappers = set(re.findall(r"\b(\w+)\s*\(\s*const char\s*\*\s*(\w+)\s*\)[^{;]*\{[^}]*?getenv\(\s*\2\s*\)", text))
    wrappers |= set(re.findall(r"\b(\w+)\s*=\s*\[[^\]]*\]\s*\(\s*const char\s*\*\s*(\w+)\s*\)[^{]*\{[^}]*?getenv\(\s*\2\s*\)", text))
    readers = {"getenv"} | {name for name, _ in wrappers}
    for name in readers - {"getenv"}:
        found |= set(re.findall(r'\b%s\(\s*"([^"]+)"\s*\)' % re.escape(name), text))
    for var, items in re.findall(r"for\s*\(\s*const char\s*\*\s*(\w+)\s*:\s*\{([^}]*)\}\s*\)", text):
        rest = text[text.find(items):][:400]
        if any(re.search(r"\b%s\(\s*%s\s*\)" % (re.escape(r), var), rest) for r in readers):
            found |= set(re.findall(r'"([^"]+)"', items))
    return found


def env_vars_read():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for v in python_env_vars(path):
            found.setdefault(v, path.relative_to(ROOT))
    for path in sorted(list(SRC.rglob("*.cpp")) + list(SRC.rglob("*.h"))):
        for v in cpp_env_vars(path.read_text()):
            found.setdefault(v, path.relative_to(ROOT))
    return found


def test_env_var_scanner_finds_reads(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\n"
                      "def flag(*names):\n    for n in names:\n        v = os.environ.get(n, '')\n"
                      "a = flag('P_ONE', 'P_TWO')\nb = os.environ['P_THREE']\n"
                      "c = os.getenv('P_FOUR', 'x')\nd = 'P_FIVE' in os.environ\n")
    assert python_env_vars(sample) == {"P_ONE", "P_TWO", "P_THREE", "P_FOUR", "P_FIVE"}
    assert cpp_env_vars('const char* v = std::getenv("A_B");') == {"A_B"}
    assert cpp_env_vars('std::string env(const char* name) {\n  const char* v = std::getenv(name);\n'
                        '  return v;\n}\nstd::string d = env("C_D");') == {"C_D"}
    assert cpp_env_vars('auto env = [](const char* name) -> std::string {\n  const char* v = '
                        'std::getenv(name);\n  return v;\n};\n  env("E");') == {"E"}
    assert cpp_env_vars('for (const char* var : {"F", "G"}) {\n  std::string r = env(var);\n}\n'
                        'std::string env(const char* n) { return std::getenv(n); }') == {"F", "G"}
    found = env_vars_read()
    # Reads known to exist, each by a different route (a helper over names, a lambda wrapper,
    # a loop over a list, a plain getenv): the scanner must see them all.
    for v in ("NUMBA_ENABLE_CUDASIM", "CUJIT_CACHE_DIR", "CUDA_PATH", "CUJIT_DEBUG"):
        assert v in found, v


def test_environment_md_lists_every_variable_read():
    page = (DOCS / "environment.md").read_text()
    spans = code_spans(page)
    missing = ["%s (read in %s)" % (v, where) for v, where in sorted(env_vars_read().items())
               if not documented(v, spans)]
    assert not missing, "docs/environment.md does not list:\n  " + "\n  ".join(missing)


# -------------------------------------------------------------------------------------------
# 3. The examples of docs/getting-started.md

def python_blocks(markdown):
    """The ```python blocks of a page, in order, dedented (blocks may sit inside list items)."""
    blocks = []
    for indent, body in re.findall(r"^( *)```python\n(.*?)^\1```", markdown, re.S | re.M):
        blocks.append("\n".join(line[len(indent):] if line.startswith(indent) else line
                                for line in body.splitlines()))
    return blocks


def test_getting_started_examples_run_on_the_simulator(tmp_path):
    blocks = python_blocks((DOCS / "getting-started.md").read_text())
    assert len(blocks) >= 6
    program = "\n\n".join(blocks) + "\n"
    expected = [m.group(1).rstrip() for m in re.finditer(r"#\s*prints:\s*(.*)$", program, re.M)]
    # Every print is checked: an unmarked one would shift the comparison.
    assert program.count("print(") == len(expected), "every print( in getting-started.md needs a '# prints:' comment"
    # Run from a file: cujit compiles from source, which exec'd strings do not have.
    script = tmp_path / "getting_started.py"
    script.write_text(program)
    # The package this test imported, first: under make test-asan that is the sanitizer build's.
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(cujit.__file__)))
    env = dict(os.environ, CUJIT_ENABLE_CUDASIM="1", CUJIT_CHECK_PTX="0",
               PYTHONPATH=os.pathsep.join([package_parent] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    env.pop("CUJIT_DISABLE_CACHE", None)  # one example looks at the cache folder
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == expected


# -------------------------------------------------------------------------------------------
# 4. Links between the pages

def heading_anchors(markdown):
    """GitHub's anchors for the headings of a page."""
    markdown = re.sub(r"^ *```.*?^ *```", "", markdown, flags=re.S | re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", markdown, re.M)}


PAGES = sorted(DOCS.glob("*.md")) + [ROOT / "README.md"]


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_links_lead_somewhere(page):
    text = re.sub(r"^ *```.*?^ *```", "", page.read_text(), flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)  # code such as kernel[blocks, threads](args) is no link
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # http(s) and mailto: not checked offline
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in heading_anchors(dest.read_text()):
            broken.append(target)
    assert not broken, "%s has broken links: %s" % (page.name, broken)


def test_every_docs_page_is_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text()
    for page in DOCS.glob("*.md"):
        assert "docs/%s" % page.name in readme, page.name
