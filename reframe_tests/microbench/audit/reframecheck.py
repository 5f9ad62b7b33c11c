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

from microbench.audit import reframetests
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


def _options(cls):
    '''The ``executable_opts`` a class sets as a list of strings, else
    [].'''
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if reframetests.target_name(target) == 'executable_opts':
                    found = _strings(node.value)
                    if found is not None:
                        return found
    return []


def commands(name, text, reader=None):
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
    found = reframetests.commands(name, classes, reader) or \
        _named(name, tree, classes)
    if not found:
        raise Unreadable(f'{name}: a ReFrame check that names no benchmark '
                         f'program (fio, IOR, mdtest, OSU, fabtests, '
                         f'elbencho) in its source: its command may be in a '
                         f'script it runs, which the audit does not follow')
    return found


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
