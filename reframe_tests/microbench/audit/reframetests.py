'''A ReFrame check's tests read statically (:mod:`.reframecheck`): each
test class (``simple_test``) whose ``executable`` names a benchmark, with
the options of its class bodies and hooks, its placement and its
launcher's options, along its base classes of the file.

Each class is read once (:class:`Summary`, one walk of its nodes), and a
test combines its classes' summaries: the work is linear in the source
and in the words the tests give (each test's words counted as an
expansion of the input, :meth:`~.bounds.Reader.spend`: a thousand tests
of one base of a thousand options are a million words, past the cap).
'''

import ast
import itertools
import re
from dataclasses import dataclass, field

from microbench.audit import bounds
from microbench.audit.batch import Command
from microbench.audit.findings import Where
from microbench.audit.programs import tool_of

#: A test's placement, as its launcher (srun) is told it
_PLACEMENT = {'num_tasks': '--ntasks', 'num_tasks_per_node':
              '--ntasks-per-node'}


@dataclass
class Summary:
    '''What one class sets, in its source's order.'''

    #: whether it sets ``executable``, and the benchmark it names (None:
    #: not one)
    sets_executable: bool = False
    executable: str = None
    #: (``=`` or ``+=``, words) of ``executable_opts`` in its body, in its
    #: hooks, and of ``self.job.launcher.options``
    body: list = field(default_factory=list)
    hooks: list = field(default_factory=list)
    launcher: list = field(default_factory=list)
    placement: dict = field(default_factory=dict)
    #: a hook sets ``self.job.launcher = getlauncher('local')()``: the
    #: executable runs without a launcher (a driver that launches itself)
    local: bool = False
    #: the names an ``executable`` built by an expression reads
    #: (``os.path.join(prefix, self.exe)``: ``prefix``, ``exe``)
    references: list = field(default_factory=list)
    #: the strings its body sets (``exe = 'ior'``, ``exe =
    #: variable(str, value='ior')``)
    constants: dict = field(default_factory=dict)
    #: its parameters of strings (``mode = parameter(['read', 'write'])``)
    parameters: dict = field(default_factory=dict)


def commands(name, classes, reader=None):
    '''The commands of the check's tests whose executable is a string
    naming a benchmark program.'''
    tests = [cls for cls in classes.values() if _decorated(cls)] or \
        list(classes.values())
    summaries = {}
    found = []
    for cls in tests:
        chain = [_summary(c, summaries) for c in _chain(cls, classes)]
        program = _program(chain)
        if program is None:
            continue
        placement = {}
        for summary in chain:
            placement.update(summary.placement)
        launcher = ['srun', *(f'{_PLACEMENT[k]}={v}' for k, v in
                              placement.items()),
                    *_folded(op for s in chain for op in s.launcher)]
        if any(summary.local for summary in chain):
            launcher = []
        options = _folded([*(op for s in chain for op in s.body),
                           *(op for s in chain for op in s.hooks)])
        words = [*launcher, program, *options]
        parameters = {}
        for summary in chain:
            parameters.update(summary.parameters)
        for values in _variants(words, parameters):
            test = [_placed(word, values) for word in words]
            named = ''.join(f' %{k}={v}' for k, v in values.items())
            where = Where(name, cls.lineno, f'{cls.name}{named}: '
                          f'{" ".join(test[len(launcher):])}')
            if reader is not None and found:
                reader.spend(sum(len(w) + 1 for w in test), where)
            found.append(Command(where, test, 1, None, {}))
    return found


def _variants(words, parameters):
    '''{parameter: value} of each test ReFrame makes of a class: one per
    combination of the parameters its words use (the first
    :data:`~.bounds.MAX_SWEEP`).'''
    text = ' '.join(words)
    used = [(name, values) for name, values in parameters.items()
            if f'<{name}>' in text]
    names = [name for name, _ in used]
    return [dict(zip(names, combination)) for combination in
            itertools.islice(itertools.product(*(v for _, v in used)),
                             bounds.MAX_SWEEP)]


def _placed(word, values):
    '''A word with each parameter's placeholder its value.'''
    for name, value in values.items():
        word = word.replace(f'<{name}>', value)
    return word


def _program(chain):
    '''The benchmark a test's ``executable`` names: the last class of the
    chain to set it, by a string or by an expression whose names are
    strings its classes set (``self.exe``, ``exe = 'ior'``), else None.'''
    last = next((s for s in reversed(chain) if s.sets_executable), None)
    if last is None or last.executable is not None:
        return last.executable if last is not None else None
    constants = {}
    for summary in chain:
        constants.update(summary.constants)
    for name in last.references:
        program = _benchmark(constants.get(name, ''))
        if program:
            return program
    return None


def _benchmark(text):
    '''The benchmark a string's first word names (its path's last part),
    else None.'''
    first = text.split()[0].rsplit('/', 1)[-1] if text.split() else ''
    return first if tool_of(first) else None


def _folded(operations):
    '''The words of ``=`` and ``+=`` operations in order.'''
    words = []
    for op, items in operations:
        words = items if op == '=' else words + items
    return words


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


def _summary(cls, summaries):
    '''The :class:`Summary` of ``cls``, read once.'''
    if id(cls) in summaries:
        return summaries[id(cls)]
    summary = Summary()
    for node in cls.body:
        _option(node, summary.body, _named_target)
        _constant(node, summary.constants)
        _parameter(node, summary.parameters)
    for method in cls.body:
        if isinstance(method, ast.FunctionDef):
            for node in ast.walk(method):
                _option(node, summary.hooks, _self_target)
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                _assigned(summary, target_name(target), node.value)
                summary.local |= _local_launcher(target, node.value)
        _option(node, summary.launcher, _launcher_target)
    summaries[id(cls)] = summary
    return summary


def _assigned(summary, name, value):
    '''Note an assignment to ``executable`` or a placement.'''
    constant = value.value if isinstance(value, ast.Constant) else None
    if name == 'executable':
        summary.sets_executable = True
        if isinstance(constant, str):
            summary.executable = _benchmark(constant)
            return
        # an expression: a string in it naming a benchmark, or the names
        # it reads (``os.path.join(prefix, self.exe)``, f'{prefix}/ior')
        summary.executable = next(
            (_benchmark(n.value) for n in ast.walk(value)
             if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and _benchmark(n.value.rsplit('/', 1)[-1])), None)
        summary.references = [target_name(n) or getattr(n, 'id', None)
                              for n in ast.walk(value)
                              if isinstance(n, (ast.Name, ast.Attribute))]
    elif name in _PLACEMENT and isinstance(constant, int) and \
            not isinstance(constant, bool):
        summary.placement[name] = constant


def _constant(node, constants):
    '''Note a class body's string: ``name = 'text'`` or ``name =
    variable(str, value='text')`` (ReFrame's variable).'''
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and
            isinstance(node.targets[0], ast.Name)):
        return
    value = node.value
    if isinstance(value, ast.Call) and ast.unparse(value.func).endswith(
            'variable'):
        value = next((k.value for k in value.keywords if k.arg == 'value'),
                     None)
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        constants[node.targets[0].id] = value.value


def _parameter(node, parameters):
    '''Note a class body's parameter of strings: ``mode =
    parameter(['read', 'write'])``.'''
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
            isinstance(node.targets[0], ast.Name) and \
            isinstance(node.value, ast.Call) and \
            ast.unparse(node.value.func).endswith('parameter') and \
            node.value.args and isinstance(node.value.args[0],
                                           (ast.List, ast.Tuple)):
        items = node.value.args[0].elts
        if items and all(isinstance(item, ast.Constant) and
                         isinstance(item.value, (str, int)) and
                         not isinstance(item.value, bool) for item in items):
            parameters[node.targets[0].id] = [str(item.value)
                                              for item in items]


def _local_launcher(target, value):
    '''Whether an assignment is ``self.job.launcher =
    getlauncher('local')()``.'''
    return ast.unparse(target) == 'self.job.launcher' and \
        isinstance(value, ast.Call) and isinstance(value.func, ast.Call) \
        and ast.unparse(value.func.func).endswith('getlauncher') and \
        [ast.unparse(a) for a in value.func.args] in (["'local'"],
                                                      ['"local"'])


def target_name(node):
    '''The name an assignment sets (``x`` or ``self.x``), else None.'''
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == 'self':
        return node.attr
    return None


def _named_target(target):
    return isinstance(target, ast.Name) and target.id == 'executable_opts'


def _self_target(target):
    return isinstance(target, ast.Attribute) and \
        target_name(target) == 'executable_opts'


def _launcher_target(target):
    return isinstance(target, ast.Attribute) and \
        ast.unparse(target) == 'self.job.launcher.options'


def _option(node, operations, ours):
    '''Note an ``=`` or ``+=`` of a list of options to a target
    ``ours`` says is the one read, or its ``.extend([...])`` or
    ``.append('-x')``.'''
    value = getattr(node, 'value', None)
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
            ours(node.targets[0]):
        op = '='
    elif isinstance(node, ast.AugAssign) and ours(node.target) and \
            isinstance(node.op, ast.Add):
        op = '+='
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ('extend', 'append') and \
            ours(node.func.value) and len(node.args) == 1:
        op, value = '+=', node.args[0]
        if node.func.attr == 'append':
            value = ast.List(elts=[value])
    else:
        return
    words = _items(value)
    if words is not None:
        operations.append((op, words))


def _items(node):
    '''The words of a list of options: constants split at blanks, any
    other item a word the audit does not know.'''
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    words = []
    for item in node.elts:
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            words += item.value.split()
        elif isinstance(item, ast.JoinedStr):
            words += _formatted(item).split()
        else:
            words.append('$' + re.sub(r'\W+', '_', ast.unparse(item))
                         .strip('_')[:40])
    return words


def _formatted(node):
    '''An f-string's text, each value it formats a placeholder of the
    name it reads (``f"--name={self.mode}_{size}"``: ``--name=<mode>_
    <size>``): the option is known, its value is the check's.'''
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
            continue
        read = value.value
        name = (read.attr if isinstance(read, ast.Attribute) else
                read.id if isinstance(read, ast.Name) else 'value')
        parts.append(f'<{name[:40]}>')
    return ''.join(parts)
