'''YAML files that hold benchmark commands: CI pipelines' steps
(``run: |``, ``script:``), Kubernetes and Flux Operator specs
(``command: ./osu_get_latency``), experiment files.  The string values
of keys that run them (``run``, ``script``, ``shell``, ``command``,
``args``, ``entrypoint``: :data:`_RUNS`) are read as the shell reads
them: a value on one line a command, a value on several lines a script;
other values (``name: fio``) and keys are names, never commands; a
container's ``command:`` and ``args:`` lists are one command (its image's
entrypoint in front, unless the arguments start with the program); a
block string that is itself a YAML document (an operator's
``benchmarkSpec: |``) is read as one, two levels deep.  Parsed with
PyYAML's safe composer: no Python object is built, and an alias is the
node it names, walked once (an alias bomb costs what its text does).'''

import re

import yaml

from microbench.audit import batch, bounds, fiojob, words
from microbench.audit.bounds import excerpt
from microbench.audit.findings import Unreadable, Where
from microbench.audit.programs import tool_of

_LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)


def is_yaml(name):
    '''A YAML file by its name (``job.yaml``; a template of one,
    ``mpijob.yaml-template``, ``values.yml.tpl``).'''
    return _NAME.search(name.lower()) is not None


#: A YAML file's name, or its template's
_NAME = re.compile(r'\.ya?ml(?:[.-](?:template|tmpl|tpl|in))?$')


def commands(name, text, reader=None, jobs=None):
    '''The commands of every string value, in the file's order; the fio
    job files its string values hold (a Kubernetes ConfigMap's ``fio.job:
    |``), as (the line their text starts on, the text), appended to
    ``jobs`` where given.

    :raises Unreadable: on text PyYAML cannot read.
    '''
    try:
        documents = [node for node in yaml.compose_all(text, Loader=_LOADER)
                     if node is not None]
    except yaml.YAMLError as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise Unreadable(f'{name}: not YAML that PyYAML reads '
                         f'({excerpt(first)})') from None
    except RecursionError:       # PyYAML's Python composer recurses
        raise Unreadable(f'{name}: YAML nested deeper than PyYAML composes '
                         f'(Python\'s recursion limit)') from None
    out, seen = [], set()
    stack = [(node, False, 0, None) for node in reversed(documents)]
    while stack:
        node, runs, depth, loop = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag != 'tag:yaml.org,2002:str' or not node.value.strip():
                continue
            if jobs is not None and is_fio_job(node.value):
                jobs.append((_first_line(node), node.value))
            elif runs or _SHEBANG.match(node.value):
                # a script a ConfigMap holds (``launcher: "#!/bin/bash\n
                # ..."``) runs where it is mounted
                out.extend(_looped(_commands_of(name, node, reader), loop))
            elif depth < MAX_NESTED and node.style in ('|', '>'):
                nested = _nested(node)
                documents += nested     # kept: ``seen`` holds their ids
                stack.extend((inner, False, depth + 1, None)
                             for inner in nested)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, runs, depth, loop)
                         for item in reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            container = _container(name, node)
            if container is not None:
                script = _shell_script(container[1])
                if script is not None:       # command: [bash, -c, SCRIPT]
                    out.extend(_commands_of(name, script, reader))
                else:
                    out.append(container[0])
                seen.update(id(n) for n in container[1])
            loop = ansible_loop(node) or loop
            stack.extend(
                (value, runs or _runs(key), depth, loop) for key, value in
                reversed(node.value))
    return out


def ansible_loop(node):
    '''(how many times, what says so) of an Ansible task's loop over its
    command (``with_sequence: count=5``, ``loop:`` or ``with_items:`` a
    list of N), or None.'''
    for key, value in node.value:
        name = str(getattr(key, 'value', ''))
        if name == 'with_sequence' and isinstance(value, yaml.ScalarNode):
            count = _SEQUENCE.search(str(value.value))
            start = _SEQUENCE_START.search(str(value.value))
            if count:
                times = bounds.integer(count[1])
            elif start:
                first, last = (bounds.integer(start[1]),
                               bounds.integer(start[2]))
                times = None if None in (first, last) else \
                    max(last - first + 1, 0)
            else:
                times = None
            said = f'with_sequence: {value.value}'
        elif name in ('loop', 'with_items') and \
                isinstance(value, yaml.SequenceNode):
            times, said = len(value.value), f'{name}: {len(value.value)} items'
        else:
            continue
        return times, f'the task\'s {excerpt(said)} (line '\
            f'{key.start_mark.line + 1})'
    return None


#: ``with_sequence``'s count, or its start and end
_SEQUENCE = re.compile(r'\bcount=(\d+)')
_SEQUENCE_START = re.compile(r'\bstart=(\d+)\s+end=(\d+)')


def _looped(found, loop):
    '''Commands of a task under its loop: each run the loop's times where
    it does not use the loop's ``item`` (a sweep where it does).'''
    if loop is None:
        return found
    times, said = loop
    for command in found:
        if 'item' in ' '.join(command.words):
            continue
        command.repeats = None if times is None or command.repeats is None \
            else command.repeats * times
        command.repeats_where = said
    return found


#: How deep a YAML document in a string value is read (an operator's
#: ``benchmarkSpec: |`` holding an MPIJob's spec)
MAX_NESTED = 2


def _nested(node):
    '''The YAML document a block string value holds (an operator's
    ``benchmarkSpec: |``), its lines where they are in the file, if it is
    a mapping or a list; else none.'''
    try:
        inner = yaml.compose(node.value, Loader=_LOADER)
    except (yaml.YAMLError, RecursionError):
        return []
    if not isinstance(inner, (yaml.MappingNode, yaml.SequenceNode)):
        return []
    _moved(inner, _first_line(node) - 1)
    return [inner]


def _down(mark, lines):
    '''``mark`` ``lines`` lines further down (a new mark: libyaml's are
    read-only).'''
    if mark is None:
        return None
    return yaml.Mark(mark.name, mark.index, mark.line + lines, mark.column,
                     None, None)


def _moved(root, lines):
    '''Every node under ``root`` moved down ``lines`` lines (each
    once: an alias is the node it names).'''
    seen, stack = set(), [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        node.start_mark, node.end_mark = (
            _down(node.start_mark, lines), _down(node.end_mark, lines))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(item for pair in node.value for item in pair)


#: Keys whose values a tool runs: CI steps (``run``, ``script``,
#: ``before_script``), Ansible's ``shell`` and ``command``, containers'
#: ``command``, ``args`` and ``entrypoint``, ``preCommand``
_RUNS = re.compile(r'(?i)^(run|shell|cmd|exec|args|entrypoint|executable|'
                   r'\w*command|\w*commands|\w*script|\w*scripts)$')


def _runs(key):
    '''Whether a mapping's key says its value is run.'''
    return isinstance(key, yaml.ScalarNode) and \
        _RUNS.match(str(key.value)) is not None


def _words(node):
    '''The strings of a list of scalars (``args: ["-w", "/data"]``), or
    None.'''
    if not isinstance(node, yaml.SequenceNode) or not node.value or not all(
            isinstance(item, yaml.ScalarNode) for item in node.value):
        return None
    return [item.value for item in node.value]


def _container(name, node):
    '''(the :class:`~.batch.Command`, the nodes it reads) of a container's
    ``command:`` and ``args:`` lists (Kubernetes, Helm values): the
    command's words then the arguments'; without a command, the image's
    own entrypoint (``image: breuner/elbencho``) runs them; None where
    the mapping has no such list.'''
    keys = {key.value: value for key, value in node.value
            if isinstance(key, yaml.ScalarNode)}
    command, args = _words(keys.get('command')), _words(keys.get('args'))
    if command is None and args is None:
        return None
    argv = [*(command or []), *(args or [])]
    image = keys.get('image')
    if command is None and isinstance(image, yaml.ScalarNode) and \
            image.value.strip() and not (
                argv and tool_of(words.program_name(argv[0]))):
        argv = [image.value.strip(), *argv]   # else args: [fio, job.fio]
    read = [keys[key] for key in ('command', 'args') if _words(keys.get(key))
            is not None]
    where = Where(name, read[0].start_mark.line + 1, ' '.join(argv))
    return batch.Command(where, argv, 1, None, {}), read


#: One of fio's options a job file sets (what tells a fio job from
#: another tool's INI text)
_JOB_OPTION = re.compile(r'^[ \t]*(?:rw|readwrite|ioengine|bs|blocksize|'
                         r'filename|directory|size|numjobs|direct)[ \t]*=',
                         re.MULTILINE)


def is_fio_job(text):
    '''Whether a string value is a fio job file: a job file's lines
    (:func:`.fiojob.is_job_text`) that set one of fio's options.'''
    stripped = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return fiojob.is_job_text(stripped) and \
        _JOB_OPTION.search(text) is not None


def _first_line(node):
    '''The file's line a string value's text starts on (a block value,
    ``run: |``, on the line after its key).'''
    return node.start_mark.line + (2 if node.style in ('|', '>') else 1)


def _commands_of(name, node, reader):
    '''A string value's commands, each where it is in the file (a quoted
    string's, whose lines are ``\\n`` escapes, where the string
    starts).'''
    first = _first_line(node)
    found = batch.commands(name, node.value, reader=reader)
    block = node.style in ('|', '>', None, '')
    for command in found:
        line = first + (command.where.line or 1) - 1 if block else first
        command.where = Where(name, line, command.where.text)
    return found


#: A string value that is a shell script (its ``#!`` line)
_SHEBANG = re.compile(r'^#!\s*\S*/(?:env\s+)?(?:ba|da|k|z)?sh\b')


def _shell_script(lists):
    '''The script node of a container's ``[bash, -c, SCRIPT]`` (its
    ``command:`` then its ``args:``), or None.'''
    items = [item for node in lists for item in node.value]
    at = words.shell_string([item.value for item in items])
    return items[at] if at is not None else None
