'''What an invocation is judged against besides its own words: the node's
memory, the OSU version, the job it runs in (a batch script's nodes,
tasks and binding) and whether it is repeated.'''

import os
import re
from dataclasses import dataclass, field, replace

from microbench.audit.bounds import MAX_DIGITS
from microbench.audit.findings import CERTAIN, Finding, depends


def node_memory():
    '''This node's memory in bytes (``MemTotal``), None where unknown.'''
    try:
        with open('/proc/meminfo') as fp:
            for line in fp:
                if line.startswith('MemTotal:'):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


@dataclass
class Context:
    '''The facts an invocation is judged with.'''

    #: the input's name (a file, ``-`` or ``argv``)
    name: str
    #: the memory of the node that runs it (bytes) and whose it is
    memory: int = None
    memory_of: str = 'this node'
    #: the OSU version, and where it was read
    osu_version: str = None
    osu_version_from: str = None
    #: the job around the invocation (a batch script): nodes, tasks per
    #: node, tasks, its directives' binding, the environment it sets
    job_nodes: int = None
    job_per_node: int = None
    job_tasks: int = None
    job_binding: str = None
    env: dict = field(default_factory=dict)
    #: whether the input is a whole run (a batch script: nothing else runs
    #: it), and how often the invocation is repeated there (a loop)
    whole_run: bool = False
    repeats: int = 1
    repeats_where: str = None
    #: the script dropped the page cache of its node since the benchmark
    #: command before this one
    caches_dropped: bool = False
    #: the directory relative job files are read from
    directory: str = '.'
    #: the sections of a fio job file to judge (fio's --section)
    sections: tuple = ()
    #: the input holds fio job files of its own (a Kubernetes ConfigMap's
    #: values, mounted as files): a job file not found is one of them
    jobs_here: bool = False
    #: what the input reads and expands, within the caps: a
    #: :class:`~.bounds.Reader`, one per input (None: a new one)
    reader: object = None

    def with_(self, **changes):
        return replace(self, **changes)


def memory_text(memory):
    return f'{memory / 2**30:.1f} GiB' if memory else 'unknown'


def size_text(size):
    '''A byte count as people read it: KiB, MiB, GiB, TiB.'''
    if size >= 2**1000:
        return 'more than 2^1000 B'      # past what a float holds in TiB
    for unit, power in (('TiB', 40), ('GiB', 30), ('MiB', 20), ('KiB', 10)):
        if size >= 2**power:
            value = size / 2**power
            return f'{value:.0f} {unit}' if value == int(value) \
                else f'{value:.1f} {unit}'
    return f'{size} B'


#: What the audit says of M1 where the input is not a whole run
M1_NOT_JUDGED = ('M1 (samples): one command line or job file cannot say '
                 'how often it is run; run it 3 times at least, round-robin '
                 'with its realistic form, and report median, min and max')


def repeated(context, found, tool_repeats=1, tool_option=None):
    '''M1 of an invocation: None where it is measured at least 3 times
    (the tool's own repetitions, or a loop of the script around it), or
    where the input is not a whole run (then ``found`` lists M1 as not
    judged); else (evidence, certainty) of a script that runs it once or
    twice.'''
    if context.repeats is None:         # a loop whose count is not said
        if (tool_repeats or 1) >= 3:
            return None
        if not context.whole_run:
            found.not_judged.append(M1_NOT_JUDGED)
            return None
        return context.repeats_where, depends('how many times that loop '
                                              'runs it')
    runs = max(tool_repeats or 1, 1) * max(context.repeats, 1)
    if runs >= 3:
        return None
    if not context.whole_run:
        found.not_judged.append(M1_NOT_JUDGED)
        return None
    said = ([f'{tool_option}'] if tool_option else []) + (
        [context.repeats_where] if context.repeats_where else [])
    evidence = (f'{runs} run{"s" if runs > 1 else ""} '
                f'({", ".join(said)})' if said else
                'one run in the script: no repetition of the tool, no loop '
                'around it')
    return evidence, CERTAIN


def repeated_unless(context, found, figure, named):
    '''M1 of a run whose repetitions may be set in a file that is not in
    the input (``ior -f FILE``, a fio job file): the script runs it once
    or twice, the file may repeat it (depends); None otherwise.'''
    said = repeated(context, found)
    if not said:
        return None
    return Finding('M1', f'{said[0]}: {figure} unless the file repeats it',
                   found.where, depends(f'the repetitions {named} sets'))


#: An OSU version in a header, a path or a name; the header's title is
#: looked for within 200 characters (``.*`` retried the rest of the line
#: from every ``# OSU MPI`` of a line holding many, quadratic)
_OSU_VERSION = re.compile(
    r'(?:# OSU MPI.{0,200}Test v|osu[-_]micro[-_]benchmarks[-/@_]v?|'
    r'OSU Micro-Benchmarks v?)(\d+\.\d+(?:\.\d+)?)', re.I)


def osu_version_in(text):
    '''An OSU version the text states (its output's header, a module or
    Spack path), or None.'''
    match = _OSU_VERSION.search(text)
    return match[1] if match else None


def version_tuple(version):
    return tuple(int(part[:MAX_DIGITS])
                 for part in re.findall(r'\d+', version)[:3])


def from_environment(name):
    '''An environment value of the auditing process, for ``${VAR}``.'''
    return os.environ.get(name)
