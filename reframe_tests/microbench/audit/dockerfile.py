'''Dockerfiles (``Dockerfile``, ``osu.Dockerfile``, ``Dockerfile.ior``):
the commands of their ``RUN`` instructions (at build time) and of their
``CMD`` and ``ENTRYPOINT`` (when the image runs), the shell form as the
shell reads it, the exec form (``CMD ["mpiexec", "-n", "2",
"./osu_latency"]``) as its words; ``ENV`` sets variables.  The other
instructions run nothing.  An image is not a run: how often it runs is
not in it (M1 not judged).'''

import json
import re
import shlex

#: An instruction at the start of a line, and the rest of it
_INSTRUCTION = re.compile(r'^\s*([A-Za-z]+)\s+(.*)$')
#: The instructions whose text runs
RUNS = ('RUN', 'CMD', 'ENTRYPOINT')


def is_dockerfile(name):
    base = name.rsplit('/', 1)[-1]
    return (base == 'Dockerfile' or base.endswith('.Dockerfile')
            or base.startswith('Dockerfile.') or base.endswith('.dockerfile'))


def script_of(text):
    '''The Dockerfile as a script, each line on its own number: what its
    RUN, CMD and ENTRYPOINT run, ENV as assignments, the rest blank.'''
    lines = text.splitlines()
    out = [''] * len(lines)
    going_on = False
    for number, line in enumerate(lines):
        if going_on:                       # a continued instruction
            out[number] = line
            going_on = line.rstrip().endswith('\\')
            continue
        match = _INSTRUCTION.match(line)
        if match is None or line.lstrip().startswith('#'):
            continue
        word, rest = match[1].upper(), match[2]
        if word == 'ENV':
            out[number] = _assignments(rest)
        elif word in RUNS:
            out[number] = _exec_form(rest)
            going_on = rest.rstrip().endswith('\\')
    return '\n'.join(out) + '\n'


def _exec_form(rest):
    '''``["prog", "arg"]`` as a shell line; a shell form as it is.'''
    stripped = rest.strip()
    if stripped.startswith('['):
        try:
            words = json.loads(stripped)
        except ValueError:
            return rest
        if isinstance(words, list) and all(isinstance(w, str)
                                           for w in words):
            return ' '.join(shlex.quote(w) for w in words)
    return rest


def _assignments(rest):
    '''``ENV A=1 B=2`` (or ``ENV A 1``) as shell assignments.'''
    parts = rest.split(None, 1)
    if not parts:
        return ''
    if '=' in parts[0]:
        return rest                        # ENV A=1 B=2
    if len(parts) < 2:
        return ''
    return f'{parts[0]}={shlex.quote(parts[1])}'   # ENV A 1
