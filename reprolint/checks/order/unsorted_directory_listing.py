from __future__ import annotations

from typing import Any, Iterator, Optional

from reprolint import fixes
from reprolint.analysis.program import Role
from reprolint.analysis.site_runs import (
    DEMOS, EVALUATES, LIBRARY_CODE, SKIPPED, UNREACHED, build_script, sites_run, uncalled_helper,
    unimported_module,
)
from reprolint.analysis.usage_events import ListingOrderTaken
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.fixes.planning import FixAction, FixPlanner, data_field, sorted_call
from reprolint.model import Applicability, Diagnostic


class UnsortedDirectoryListing(Rule):
    """
    ## What it does
    Reports `os.listdir`, `os.scandir`, `os.walk`, `glob.glob`/`iglob`,
    `Path.glob/rglob/iterdir` results used in order without `sorted()`.

    The order is *used* when the listing is stored in a variable or attribute that is
    then indexed, sliced, enumerated, zipped, shuffled, split into train/validation
    or passed on; when it is consumed inline (`enumerate(os.listdir(d))`,
    `glob(...)[-1]`); or when a loop over it yields, writes, appends, extends or
    inserts into a list that is not sorted afterwards (`paths.sort()`,
    `sorted(paths)`) and whose order is used later as a stored listing's is (a loop
    that stops early or draws per entry has used it already), or grows a name from
    outside the loop with a sequence or text
    (`result += zip(a, b)`, `text += f.read()`, `names = names + [f]`; not a number:
    `total += size` is a sum). The first triple of `os.walk` (`next(os.walk(d))`,
    `os.walk(d).__next__()`) is the top folder's own in any order; its subfolder and
    file lists (unpacked, or `[1]`/`[2]`) are listings judged like the others. The listing is followed through copies that keep its
    order (`files = [f for f in files if ...]`, `list(files)`, `filter(...)`), and so is a
    list a loop over it fills: a comprehension over it, or over `zip` of the lists the
    same loop filled side by side (`pairs = [(p, classes[l]) for p, l in zip(paths,
    labels)]`), is sorted when the copy is (`pairs = sorted(pairs)`); such a list grown
    further (`paths += [extra]`) keeps the listing's order, and a loop over it is judged
    like a loop over the listing.

    Not reported:
    - a listing wrapped in `sorted(...)` or sorted later in the function
      (`files.sort()`, `files = sorted(files)`, a helper named like a sort such as
      `natural_sort(files)`, also inline and through a module:
      `checkpoints.natural_sort(glob(p))`), also flattened into what is sorted
      (`sorted(sum([glob(p) for p in patterns], []))`,
      `sorted(itertools.chain.from_iterable(glob(p) for p in patterns))`; not
      `sorted([glob(p) for p in patterns])`, which orders whole lists);
    - order-free uses: counted (`len(...)`), put in a set, summed, maximised, tested
      (`name in os.listdir(d)`), tested for truth (`if glob.glob(p):`, `not
      os.listdir(d)`, `bool(...)`, through `and`/`or`), compared or shown in an `assert`
      (`assert os.listdir(a) == os.listdir(b)` only stops the run or not),
      filtered down to one name (`[f for f in os.listdir(d)
      if f == NAME]`), a listing that is a statement of its own (a notebook cell ending
      in `os.listdir(d)` only displays it);
    - a listing or nothing (`glob(p) if args.output_dir else []`) bound to a name:
      the listing, judged by the name's uses (`max(files, key=os.path.getctime)`);
    - a concatenation of listings bound to a name (`ckpts = list(d.glob("*.bin")) +
      list(d.glob("*.pth"))`), like `files += glob(p2)`: one listing, judged by what is
      done with the name (`ckpts.sort()` orders all of it; used unsorted, it is reported
      once, at its first listing);
    - a listing handed whole, only to parameters of project functions that loop over it
      handling each entry on its own and otherwise only test it (`utils.create_exp_dir(path,
      scripts_to_save=glob.glob("*.py"))` copying each script into the experiment
      folder); one that stops at the first entry, numbers the entries or keeps them in
      order is no such function, and a listing also printed or given to a library call
      is judged as before;
    - a comprehension written as a statement that only shows each entry (`[print(c)
      for c in checkpoints]`), like a loop of prints;
    - a loop that handles each entry on its own or keeps a maximum (`latest =
      max(latest, int(t))`). Handling an entry: calls on objects of one iteration
      (`lines = f.readlines()`, `lines.insert(0, h)`, `f.writelines(lines)`; names
      nothing outside the loop reads), a test of the entry's own values (`all(k in cfg
      for k in KEYS)`, `any(...)`, `hasattr`), `open()` of a path built from the entry (not in
      append mode), a library function given only the entry's values and constants
      (`Image.open(f)`, `subprocess.run([tool, f], check=True)`, torch's tensor functions
      such as `torch.from_numpy`; not `random`, NumPy's RNG, torch's draws, layers and
      stateful namespaces, TF, JAX, Keras), a function of the same module that changes nothing
      but what it is given of the entry (`resize(img, size)` returning
      `img.resize(size)`; one that opens the paths it is given, builds paths with
      `os.path` and writes only the files it opened; one that calls another such
      function of the module, two calls deep: a face crop that rotates coordinates
      with a helper), a process or rank check in a condition
      (`PartialState().is_main_process`, `dist.get_rank() == 0`: a call without
      arguments read as an attribute or compared with a literal; `random.random() <
      0.1` is a draw and is reported); `for i, f in enumerate(files)` whose count `i`
      only reaches `print` progress messages that do not show the entry counts as `for
      f in files` (`print(i, f)` pairs positions with files and is reported), and so does
      `for i in range(len(files))` whose body reads `files` only as `files[i]` and `i`
      only there or in such messages (an image resized and saved under its own name);
    - a loop that submits each entry to a worker process or thread
      (`pool.apply_async(worker, args=(path, cfg))`, `executor.submit(worker, path)`) that
      runs a function of the module changing nothing but what the entry gives it; a
      configuration dict or namespace it only reads out of counts as given, and a callback
      may only advance a progress bar (`lambda _: bar.update(1)`);
    - a list handed to a process pool's `map` (also `imap`, `imap_unordered`, `starmap`,
      their `_async` forms, an executor's `map`) as a statement, with a function of the
      module that changes nothing but the entry it is given (`pool.map(resize, images)`
      saving each image under its own name; `print` there shows, and creating the pool
      in the loop is no effect of an entry);
    - a comprehension that makes one file operation per entry
      (`[CommitOperationAdd(...) for p in d.glob("*")]` for a Hub commit, `shutil.copy`,
      `os.remove`);
    - element 0 of a glob (`glob.glob(pattern)[0]`, `files[0]` of a stored glob): taking
      element 0 of a pattern's matches is the idiom for "the one match", and when one
      file matches the order does not matter (several matches are a bug of another
      kind); likewise element 0 of a stored listing inside `if len(files) == 1:` (its
      `else` excluded) or after `assert len(files) == 1`. Element 0 of a whole folder (`os.listdir(d)[0]`,
      `glob.glob("data/*")[0]`) and `[-1]` for "the latest" are reported;
    - an `os.walk` loop that sorts both the directory and the file list (`dirs.sort()`,
      `sorted(files)`);
    - a helper that returns the listing as is (`return os.listdir(path)`, a
      comprehension over it, the name holding it, or a list that a loop over it fills
      with `append` or `+=` and that nothing else there reads, as in `for root, _, files
      in os.walk(d): ... paths.append(os.path.join(root, f))` then `return paths`): the
      order is decided where its callers use the result, and on real code the callers
      of such wrappers sort or search it (a file-system abstraction's `listdir`/`glob`,
      a "list the monitor files" helper); the call is not followed into callers, so a
      caller that trains on a wrapper's result unsorted is a known blind spot. A slice
      or index of the listing in the `return` (`return glob(p)[:k]`) is reported;
    - a packaging script's listings (a module that imports `setuptools`, `distutils`,
      `skbuild` or `pybind11`, such as a `setup.py` globbing extension sources): they order
      what a compiler builds, no training result;
    - anything that only demo programs run (see program roles: a `__main__` smoke demo
      of a package's module, a `demo_*` script): a demo's output is no result;
    - where only evaluation, demo or test programs run it (see program roles),
      a loop that goes through every entry, and a listing handed on whole (printed,
      given to a function, a dataset or a process's argument list, inline or through
      the name holding it): each file gets the same result in any order, only the
      order of the outputs changes (an inference script predicting every image of a
      folder). What picks files by their place there is reported: an index or slice
      of the listing, a split or random pick of it (`random.sample`, `train_test_split`,
      `random_split`), pairing it with another sequence (`zip(images, masks)`), a loop
      that can stop early (`break`, `return`), a loop that draws from a random generator
      for each entry (a random crop per image: which file gets which draw follows the
      order).

    Also TensorFlow's `tf.io.gfile.listdir`/`glob`/`walk` and their TF 1.x spellings
    `tf.gfile.Glob`/`ListDirectory`/`Walk` (and `tf.compat.v1.gfile.*`): like `glob.glob`,
    they return each folder's entries in the file system's order, unsorted, and a pattern
    with wildcards in several folders lists them in parallel threads.

    Where it runs: reported at the listing call when a program runs it on its default
    path (its module's top level, or a function a call or a framework runs), or when no
    program runs it at a call and it is library code: a function of a package (a folder
    with `__init__.py`) that nothing here calls, which a user may import and call, or a
    module of a package no program imports (a library checked on its own). A package is
    a library for others where the project declares a distribution that may hold it (a
    `setup.py`, a `setup.cfg` with `[metadata]`/`[options]`, a `pyproject.toml` with
    `[project]`, `[tool.poetry]` or `[build-system]`, in its folder or one above); in a
    package no such file declares (the scripts' own code), a plain function that no
    program calls and no module names (`load_checkpoints` that nothing calls, in a table
    or a callback) runs nowhere and is not reported. A method of a class there stays
    reported: a class may be built by name (a registry, `eval(NAMES[name])`). A module of
    a package the programs import that none of them imports, directly or through the
    package (a dataset class left out of the package's registry, a plotting module), runs
    for nobody and is not reported. A function of a helper module beside the scripts that
    import it (no `__init__.py`) that none of them calls runs on no program's path and
    is not reported (`load_results` in a flat `monitor.py` whose `Monitor` the scripts use;
    not the functions of a `hubconf.py`, which `torch.hub.load` calls). Not reported where every program that reaches it skips it: on a branch
    that the program's options or module constants make false by default (`if
    args.task == "study":`, `if CLEAN_CACHE:`), or in a function only such a branch
    calls; a parameter's default alone does not decide (a caller may pass another
    value). A listing bound to a name (also by `with os.scandir(d) as entries:`) takes its order where a use of it runs, under the
    conditions of the binding (`else: chosen = files` and then `chosen[0]`: only where
    the `else` runs); so does one kept in a NumPy array (`np.array(glob(p))`, then only
    `len(...)`: no order), and a loop that only reads each file (`torch.load(path)`,
    `np.load`, `json.load`, an image) into pairs that are sorted later takes none. The
    finding names the entry points of the programs that run it (none for
    library code). Not in test modules (what a test runner collects: test functions or classes
    in `tests/`, `test_*.py`, pytest/unittest modules; and their helpers) unless
    `include-tests`.

    ## Why is this bad?
    Directory order is whatever the file system returns: an unchanged folder lists the
    same way on one machine, but another machine, another file system or a fresh copy
    of the data lists it differently, so the same script sees samples in a different
    order, assigns different class ids or splits the data differently.

    Mitigation: `sorted(os.listdir(d))`, `sorted(Path(d).glob("*.png"))`.

    ## Example
    ```python
    files = glob.glob("data/*.png")
    train, val = files[:800], files[800:]
    ```

    Use instead:
    ```python
    files = sorted(glob.glob("data/*.png"))
    train, val = files[:800], files[800:]
    ```

    ## Fix safety
    Safe: the listing's order was whatever the file system gave, so the sorted order is
    one the original could have produced (from then on every run and machine agrees). The listing call is wrapped in `sorted(...)`
    (`os.scandir` with `key=lambda entry: entry.name`). No fix for `os.walk`: its
    directory and file lists must be sorted inside the loop.

    ## References
    - https://docs.python.org/3/library/os.html#os.listdir
    - https://docs.python.org/3/library/glob.html#glob.glob
    """

    code = "RPL402"
    # Not "differs between runs": on one machine an unchanged folder lists the same way
    # every time; another file system, machine or copy of the data lists it differently.
    message = "`{function}` returns entries in the file system's arbitrary order (another machine, file system or copy of the data lists them differently); the order is used here without `sorted()`"
    fix_title = "Wrap the listing in `sorted(...)`"
    fix_applicability = Applicability.SAFE
    framework = "python"

    VALID = [
        Valid("import glob\nfiles = sorted(glob.glob('d/*.png'))\nprint(files[0])\n"),
        Valid("import os\nn = len(os.listdir('d'))\nhas = 'a.txt' in os.listdir('d')\n"),
        Valid("import os\nfiles = os.listdir('d')\nfiles.sort()\nprint(files[:3])\n"),
        Valid("import os, shutil\nfor f in os.listdir('d'):\n    shutil.copy(f, 'e')\n"),
        Valid("from pathlib import Path\nimgs = sorted(p for p in Path('d').rglob('*.jpg') if p.is_file())\n"),
    ]
    INVALID = [
        Invalid("import glob\nfiles = glob.glob('d/*.png')\ntrain = files[:80]\n", line=2,
            fixed=(
                "import glob\nfiles = sorted(glob.glob('d/*.png'))\ntrain = files[:80]\n"
            ),
        ),
        Invalid("import os\nfor i, f in enumerate(os.listdir('d')):\n    print(i, f)\n", line=2),
        Invalid(
            "import os\npaths = []\nfor root, dirs, files in os.walk('d'):\n    for f in files:\n"
            "        paths.append(os.path.join(root, f))\nprint(paths[0])\n",
            line=3,
        ),
        Invalid(
            "from pathlib import Path\nclass DS:\n    def __init__(self, root):\n"
            "        self.items = list(Path(root).iterdir())\n    def __getitem__(self, i):\n        return self.items[i]\n",
            line=4,
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        runs = sites_run(ctx, ListingOrderTaken)
        roles: dict[str, set[Role]] = {}
        for program in ctx.programs:
            for module in program.modules:
                roles.setdefault(module, set()).add(program.role)
        for path, facts in ctx.facts.items():
            if ctx.index.is_test(path) and not ctx.settings.include_tests:
                continue  # a test's file order reaches no training result
            if build_script(ctx, path):
                continue  # a packaging script: the order of the sources it builds
            if unimported_module(ctx, path):
                continue  # a module of the programs' package that none of them imports
            # library code no program runs at a call, in a module only evaluation, demo or
            # test programs import: judged as they run it
            evaluates_only = bool(roles.get(path)) and not roles[path] & {Role.TRAINING, Role.LIBRARY}
            seen: set[object] = set()
            for finding in facts.findings:
                if finding.code != self.code or finding.span in seen:
                    continue
                seen.add(finding.span)
                run = runs.get((path, finding.span), LIBRARY_CODE)
                how = run.how
                if how in (SKIPPED, DEMOS):
                    continue  # skipped by the default run, or run only by demos (no result)
                data = {k: v for k, v in finding.data.items() if k not in ("in_function", "passed_to", "owner", "attr")}
                if data.get("use") == "stored":
                    # a listing kept in `self.<attr>` that its class never reads in an order
                    if not _read_elsewhere(ctx, path, str(finding.data.get("owner", "")), str(finding.data.get("attr", ""))):
                        continue  # kept, counted, never read in an order
                    data["use"] = "other"  # `dataset.files` read outside the class: in an order unknown
                if data.get("use") == "passed" and _handed_to_order_free(ctx, path, finding.data.get("passed_to")):
                    continue  # handed whole to project functions that handle each entry on its own
                if uncalled_helper(ctx, path, run, finding.data.get("in_function")):
                    continue  # a helper module's function none of the scripts beside it calls
                if how == UNREACHED and evaluates_only:
                    how = EVALUATES
                if how == EVALUATES and finding.data.get("use") in ("loop", "passed"):
                    # only evaluation or demo programs run it: a loop over every entry,
                    # or the listing handed on or shown, gives each entry the same result
                    # in any order (what picks entries by position stays reported)
                    continue
                yield self.report(path, finding.span, entry_points=run.entries, **data)


def _read_elsewhere(ctx: CheckContext, path: str, cls: str, attr: str) -> bool:
    """Whether code outside the class ``cls`` of ``path`` may read its attribute
    ``attr`` (``dataset.files``, a subclass's ``self.files``): a function or the top
    level of the module, or of another module of the programs that run it (of the
    project, when none does), or a subclass, names ``.attr``; or the mentions are not
    known. Another class's methods naming ``self.files`` read their own attribute."""
    wanted = "." + attr
    running = {m for p in ctx.programs if path in p.modules for m in p.modules} or set(ctx.facts)
    for other, facts in ctx.facts.items():
        if other not in running:
            continue
        if facts.mentioned is None or (other == path and cls not in facts.class_mentions):
            return True
        blocks = [facts.mentioned, *facts.def_mentions.values(), *facts.table_mentions.values()]
        blocks += [
            names for name, names in facts.class_mentions.items()
            if any(base.rpartition(".")[2].lstrip(":") == cls for base in facts.classes.get(name, ()))
        ]
        if any(wanted in names for names in blocks):
            return True
    return False


def _handed_to_order_free(ctx: CheckContext, path: str, passed_to: Any) -> bool:
    """Every place the listing is handed whole is a parameter of a project function that
    loops over it, handling each entry on its own, and otherwise only tests it
    (``ModuleFacts.order_free_params``): ``create_exp_dir(path, scripts_to_save=glob(...))``
    copying each script."""
    if not passed_to:
        return False
    for handed in passed_to:
        if not handed:
            return False  # printed, or given to a library call: its order may show
        target, key = handed
        resolved = ctx.index.resolve_call(path, target)
        if resolved is None:
            return False
        file, qualname = resolved
        facts = ctx.facts.get(file)
        function = facts.functions.get(qualname) if facts is not None else None
        if function is None:
            return False
        if isinstance(key, int):
            if "." in qualname or key >= len(function.positional):
                return False  # a method's positions shift with its receiver: not followed
            key = function.positional[key]
        if f"{qualname}.{key}" not in facts.order_free_params:  # type: ignore[union-attr]
            return False
    return True


# ----------------------------------------------------------------------------- fix


_SORT_KEYS = {"os.scandir": "lambda entry: entry.name"}


@UnsortedDirectoryListing.fix_planner
def _plan_listing(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    """RPL402: ``sorted(...)`` around the listing call (none for ``os.walk``, whose lists
    need sorting inside the loop)."""
    function = data_field(d, "function")
    if function == "os.walk":
        return None
    key = _SORT_KEYS.get(str(function))
    return FixAction(
        d.path, ("sorted", d.span), planner.applicability(d.code), "Wrap the listing in `sorted(...)`",
        lambda m: fixes.rewrite(m, d.span, lambda node: sorted_call(node, key)),  # type: ignore[arg-type]
    )
