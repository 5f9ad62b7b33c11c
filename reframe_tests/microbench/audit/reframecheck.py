'''A ReFrame check read statically (its source parsed, never imported or
run): the benchmark commands it runs, judged by their tools' rules.

A check names its program in ``executable`` (a class attribute, or
``self.executable`` set in a hook), often built from parameters or
fixtures; its options in ``executable_opts``.  What the audit can read
without running anything:

- a test (a class decorated ``simple_test``, else every class) whose
  ``executable`` is a string naming a benchmark program, set in its class
  or a base class of the file, in the class body or a hook
  (``self.executable = 'ior'``), is that program with its
  ``executable_opts``: the class body's (a subclass's list replaces its
  base's, ``+=`` extends it), then every hook's ``self.executable_opts =
  [...]`` or ``+= [...]``, the base classes' first, in the file's order;
  an item that is not a string constant is a word the audit does not know
  (``$num_tasks_per_node``: passed over and said), a string of several
  words is those words (ReFrame joins the options with blanks); under
  ``srun`` with the ``num_tasks`` and ``num_tasks_per_node`` its classes
  set to a number and the options its hooks give the launcher
  (``self.job.launcher.options``);
- otherwise, every program the source names in a string (``'osu_bw'``,
  a path ending in one, an entry of a ``parameter([...])`` list), once
  each, where it is first named, with the options of the class that
  names it where they are a list of strings;
- the run is a whole run (ReFrame runs the command once per test case:
  M1 is judged), launched by the partition's launcher (unknown here).

A Python source that does not import ReFrame is not a check; one that
names no benchmark program is refused, saying so (its options may be in
a script it runs, which the audit does not follow).
'''

import ast
import re
import warnings

from microbench.audit.batch import Command
from microbench.audit.findings import Unreadable, Where
from microbench.audit.programs import tool_of

#: A word that names a benchmark program of the audit (a path's last part)
_PROGRAM = re.compile(r'(?:^|[/\s.`\'"(])(osu_[a-z_]+|ior|mdtest|fio|'
                      r'elbencho|fi_[a-z_]+)(?=$|[\s`\'",.)\]])')


def is_check(text):
    '''Whether ``text`` is Python that imports ReFrame.'''
    return bool(re.search(r'^\s*(import reframe|from reframe[ .])', text,
                          re.MULTILINE))


def _strings(node):
    '''The string constants of a list or tuple of them, else None.'''
    if isinstance(node, (ast.List, ast.Tuple)) and all(
            isinstance(item, ast.Constant) and isinstance(item.value, str)
            for item in node.elts):
        return [item.value for item in node.elts]
    return None


def _target(node):
    '''The name an assignment sets (``x`` or ``self.x``), else None.'''
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == 'self':
        return node.attr
    return None


def _options(cls):
    '''The ``executable_opts`` a class sets as a list of strings, else
    [].'''
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if _target(target) == 'executable_opts':
                    found = _strings(node.value)
                    if found is not None:
                        return found
    return []


def commands(name, text):
    '''A :class:`~.batch.Command` for every test of the check (under
    ``srun``, with its options), or every benchmark program it names.

    :raises Unreadable: not Python, or no benchmark program named.'''
    try:
        with warnings.catch_warnings():
            # a check's own invalid escapes ('\s' outside a raw string)
            # are its author's to hear, not the audit's reader's
            warnings.simplefilter('ignore')
            tree = ast.parse(text, name)
    except (SyntaxError, ValueError, RecursionError) as err:
        raise Unreadable(f'{name}: imports ReFrame but is not Python '
                         f'(ast: {str(err)[:200]})') from None
    classes = {node.name: node for node in ast.walk(tree)
               if isinstance(node, ast.ClassDef)}
    found = _tests(name, classes) or _named(name, tree, classes)
    if not found:
        raise Unreadable(f'{name}: a ReFrame check that names no benchmark '
                         f'program (fio, IOR, mdtest, OSU, fabtests, '
                         f'elbencho) in its source: its command may be in a '
                         f'script it runs, which the audit does not follow')
    return found


def _tests(name, classes):
    '''The commands of the check's tests whose executable is a string
    naming a benchmark program.'''
    tests = [cls for cls in classes.values() if _decorated(cls)] or \
        list(classes.values())
    found = []
    for cls in tests:
        chain = _chain(cls, classes)
        program = _executable(chain)
        if program is None:
            continue
        launcher = ['srun', *_placement(chain), *_launcher_options(chain)]
        words = [*launcher, program, *_test_options(chain)]
        where = Where(name, cls.lineno,
                      f'{cls.name}: {" ".join(words[len(launcher):])}')
        found.append(Command(where, words, 1, None, {}))
    return found


def _decorated(cls):
    return any('simple_test' in ast.unparse(decorator)
               for decorator in cls.decorator_list)


def _chain(cls, classes):
    '''``cls`` and its base classes defined in the file, the bases
    first (each once; a cycle stops).'''
    chain, todo, seen = [], [cls], set()
    while todo:
        current = todo.pop()
        if current.name in seen:
            continue
        seen.add(current.name)
        chain.insert(0, current)
        todo.extend(classes[base.id] for base in current.bases
                    if isinstance(base, ast.Name) and base.id in classes)
    return chain


#: A program word that is a benchmark of the audit's
_BENCHMARK = re.compile(r'osu_[a-z_]+|ior|mdtest|fio|elbencho|fi_[a-z_]+')


def _executable(chain):
    '''The benchmark program a test's ``executable`` names (the last
    one set along its classes), or None.'''
    program = None
    for cls in chain:
        for node in ast.walk(cls):
            if isinstance(node, ast.Assign) and any(
                    _target(t) == 'executable' for t in node.targets):
                value = node.value
                text = value.value if isinstance(value, ast.Constant) and \
                    isinstance(value.value, str) else ''
                first = text.split()[0].rsplit('/', 1)[-1] if \
                    text.split() else ''
                program = first if _BENCHMARK.fullmatch(first) and \
                    tool_of(first) else None
    return program


def _items(node):
    '''The words of a list of options: constants split at blanks, any
    other item a word the audit does not know.'''
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    words = []
    for item in node.elts:
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            words += item.value.split()
        else:
            words.append('$' + re.sub(r'\W+', '_', ast.unparse(item))
                         .strip('_')[:40])
    return words


def _test_options(chain):
    '''A test's ``executable_opts``: the class bodies', then the
    hooks'.'''
    options = []
    for cls in chain:                    # the class bodies, bases first
        for node in cls.body:
            options = _applied(node, options, 'executable_opts')
    for cls in chain:                    # then the hooks
        for method in cls.body:
            if isinstance(method, ast.FunctionDef):
                for node in ast.walk(method):
                    options = _applied(node, options, 'self')
    return options


#: A test's placement, as its launcher (srun) is told it
_PLACEMENT = {'num_tasks': '--ntasks', 'num_tasks_per_node':
              '--ntasks-per-node'}


def _placement(chain):
    '''srun's words of a test's ``num_tasks`` and ``num_tasks_per_node``
    where its classes set them to a number (the last one set).'''
    said = {}
    for cls in chain:
        for node in ast.walk(cls):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    name = _target(target)
                    if name in _PLACEMENT and isinstance(
                            node.value, ast.Constant) and isinstance(
                            node.value.value, int):
                        said[name] = node.value.value
    return [f'{_PLACEMENT[name]}={value}' for name, value in said.items()]


def _launcher_options(chain):
    '''The options a test gives its launcher (``self.job.launcher.options
    = [...]`` or ``+= [...]`` in a hook), the base classes' first.'''
    options = []
    for cls in chain:
        for node in ast.walk(cls):
            target = node.target if isinstance(node, ast.AugAssign) else (
                node.targets[0] if isinstance(node, ast.Assign) and
                len(node.targets) == 1 else None)
            if target is None or ast.unparse(target) != \
                    'self.job.launcher.options':
                continue
            words = _items(node.value)
            if words is None:
                continue
            options = options + words if isinstance(
                node, ast.AugAssign) else words
    return options


def _applied(node, options, scope):
    '''``options`` after an assignment to ``executable_opts`` (``=``
    replaces, ``+=`` extends), if ``node`` is one in ``scope`` (the class
    body's name, or ``self.`` in a hook).'''
    def ours(target):
        if scope == 'self':
            return isinstance(target, ast.Attribute) and \
                _target(target) == 'executable_opts'
        return isinstance(target, ast.Name) and \
            target.id == 'executable_opts'
    if isinstance(node, ast.Assign) and any(ours(t) for t in node.targets):
        words = _items(node.value)
        return words if words is not None else options
    if isinstance(node, ast.AugAssign) and ours(node.target) and \
            isinstance(node.op, ast.Add):
        words = _items(node.value)
        return options + words if words is not None else options
    return options


def _named(name, tree, classes):
    '''A command for every benchmark program the source names in a
    string, with the options of the class that names it.'''
    seen, found = set(), []
    owner = {}
    for cls in classes.values():
        for node in ast.walk(cls):
            owner.setdefault(id(node), cls)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value,
                                                              str)):
            continue
        for program in _PROGRAM.findall(node.value):
            if program in seen or tool_of(program) is None:
                continue
            seen.add(program)
            cls = owner.get(id(node))
            opts = _options(cls) if cls is not None else []
            words = ['srun', program, *opts]
            line = getattr(node, 'lineno', None)
            where = Where(name, line, ' '.join(words[1:]))
            found.append(Command(where, words, 1, None, {}))
    return found
