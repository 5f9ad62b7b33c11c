'''A ReFrame check read statically (its source parsed, never imported or
run): the benchmark commands it runs, judged by their tools' rules.

A check names its program in ``executable`` (a class attribute, or
``self.executable`` set in a hook), often built from parameters or
fixtures; its options in ``executable_opts``.  What the audit can read
without running anything:

- every program the source names in a string (``'osu_bw'``, ``'ior'``,
  a path ending in one, an entry of a ``parameter([...])`` list), once
  each, where it is first named;
- the options of the class that names it: its ``executable_opts`` where
  they are a list of strings;
- the run is a whole run (ReFrame runs the command once per test case:
  M1 is judged), launched by the partition's launcher (unknown here).

A Python source that does not import ReFrame is not a check; one that
names no benchmark program is refused, saying so (its options may be in
a script it runs, which the audit does not follow).
'''

import ast
import re

from microbench.audit.batch import Command
from microbench.audit.findings import Unreadable, Where

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
    '''A :class:`~.batch.Command` for every benchmark program the check
    names (under ``srun``, its options where its class gives them).

    :raises Unreadable: not Python, or no benchmark program named.'''
    try:
        tree = ast.parse(text, name)
    except (SyntaxError, ValueError, RecursionError) as err:
        raise Unreadable(f'{name}: imports ReFrame but is not Python '
                         f'(ast: {str(err)[:200]})') from None
    seen, found = set(), []
    classes = [node for node in ast.walk(tree)
               if isinstance(node, ast.ClassDef)]
    owner = {}
    for cls in classes:
        for node in ast.walk(cls):
            owner.setdefault(id(node), cls)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value,
                                                              str)):
            continue
        for program in _PROGRAM.findall(node.value):
            if program in seen:
                continue
            seen.add(program)
            cls = owner.get(id(node))
            opts = _options(cls) if cls is not None else []
            words = ['srun', program, *opts]
            line = getattr(node, 'lineno', None)
            where = Where(name, line, ' '.join(words[1:]))
            found.append(Command(where, words, 1, None, {}))
    if not found:
        raise Unreadable(f'{name}: a ReFrame check that names no benchmark '
                         f'program (fio, IOR, mdtest, OSU, fabtests, '
                         f'elbencho) in its source: its command may be in a '
                         f'script it runs, which the audit does not follow')
    return found
