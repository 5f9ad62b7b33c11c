'''YAML files that hold benchmark commands: CI pipelines' steps
(``run: |``, ``script:``), Kubernetes and Flux Operator specs
(``command: ./osu_get_latency``), experiment files.  Every string value
is read as the shell reads it: a value on one line a command, a value on
several lines a script; keys are names, never commands.  Parsed with
PyYAML's safe composer: no Python object is built, and an alias is the
node it names, walked once (an alias bomb costs what its text does).'''

import yaml

from microbench.audit import batch
from microbench.audit.bounds import excerpt
from microbench.audit.findings import Unreadable, Where

#: The names of YAML files
EXTENSIONS = ('.yaml', '.yml')
_LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)


def is_yaml(name):
    return name.lower().endswith(EXTENSIONS)


def commands(name, text, reader=None):
    '''The commands of every string value, in the file's order.

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
    out, seen, stack = [], set(), list(reversed(documents))
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag == 'tag:yaml.org,2002:str' and node.value.strip():
                out.extend(_commands_of(name, node, reader))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            stack.extend(value for _, value in reversed(node.value))
    return out


def _commands_of(name, node, reader):
    '''A string value's commands, each where it is in the file (a block
    value, ``run: |``, starts on the line after its key).'''
    first = node.start_mark.line + (2 if node.style in ('|', '>') else 1)
    found = batch.commands(name, node.value, reader=reader)
    for command in found:
        line = first + (command.where.line or 1) - 1
        command.where = Where(name, line, command.where.text)
    return found
