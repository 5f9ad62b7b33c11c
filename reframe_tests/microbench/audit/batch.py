'''Batch scripts (Slurm, PBS) and plain shell: every benchmark line, with
the variables the script sets and the loops around each line (the job
its directives ask for: :mod:`.batchjob`).

A loop that runs the same command again is repetition (M1); a loop whose
variable the command uses is a sweep of configurations, each run once.
'''

import re
from collections import ChainMap
from dataclasses import dataclass, field

from microbench.audit import (bounds, commandwords, harnesses, io500v1,
                              shellarrays, shellbranches, shellflow,
                              shellloops, shellvars, words)
from microbench.audit.findings import Unreadable, Where

#: A ``for`` loop's head, and the ``; do`` after its items
_FOR = re.compile(r'\s*for\s+(\w+)\s+in\s+')
_DO = re.compile(r';\s*do\b')
_WHILE = re.compile(r'^\s*(while|until)\b')
#: A ``#!`` line whose shell runs with ``-e`` (``#!/bin/bash -ex``)
_ERREXIT_SHEBANG = re.compile(r'\s-\w*e')


@dataclass
class Command:
    '''A command of the script: where it is, its words (variables
    expanded where the script set them), the loops around it and the
    environment set before it.'''

    where: Where
    words: list
    repeats: int
    repeats_where: str
    env: dict
    #: configurations of its sweep past :data:`~.bounds.MAX_SWEEP`, not
    #: judged
    unswept: int = 0
    #: the files the script wrote before it in here-documents: name ->
    #: text
    files: dict = None
    #: what of it the audit does not judge, said of each invocation
    not_judged: list = field(default_factory=list)
    #: the script runs under ``set -e``: it stops if this command fails
    errexit: bool = False
    #: how many times the script dropped the page cache before it
    #: (``echo 3 > /proc/sys/vm/drop_caches``, ``sysctl vm.drop_caches=3``)
    drops: int = 0


def commands(name, text, initial_env=None, prompt=False, reader=None,
             ended=None):
    '''Every command of a script, in order, with the loops around it;
    with ``prompt``, a shell prompt (``$ ``) before a command is dropped
    (a command pasted from a terminal).  ``reader`` (a
    :class:`~.bounds.Reader`) counts what variables and sweeps add; an
    ``exit`` at the top level ends the script (its :class:`Where` is
    appended to ``ended``).  Here-documents are files the script writes
    (:attr:`Command.files`), a call of a function that runs what it is
    given is the command it runs, a sourced IO500 driver the commands it
    runs, a sourced test harness its functions (:mod:`.shellflow`,
    :mod:`.io500v1`, :mod:`.harnesses`).

    :raises Unreadable: loops nested past :data:`~.bounds.MAX_LOOP_DEPTH`,
        expansions past :data:`~.bounds.MAX_EXPANSION_BYTES`.
    '''
    flow = _Flow(shellvars.Environment(initial_env), reader)
    lines = iter(words.lines(text))
    for number, line in lines:
        stripped = line.strip()
        if prompt and stripped.startswith('$ '):
            stripped = stripped[2:]
        elif prompt:
            stripped = _windows_prompt(stripped)
        if number == 1 and stripped.startswith('#!'):
            flow.errexit = _ERREXIT_SHEBANG.search(stripped) is not None
        if not stripped or stripped.startswith('#'):
            continue
        errexit = shellflow.errexit(stripped)
        if errexit is not None:
            flow.errexit = errexit
        where = Where(name, number, line.strip())
        if stripped == flow.stdin_script:
            flow.stdin_script = None          # the end of a job's script
            continue
        document = shellflow.heredoc(stripped)
        if document and not document[2] and _runs_stdin(
                stripped, flow.env.view()):
            # sbatch << EOF: the job script is the document, run as read
            flow.stdin_script = document[0]
        elif document:
            flow.read_document(lines, document)
        stripped = shellarrays.gather(stripped, lines)
        if flow.dead_branch(stripped):
            continue
        one_line = shellflow.one_line_function(stripped)
        if one_line:
            flow.functions.enter(one_line[0])
            _parts(flow, one_line[1], where)
            flow.functions.leave()
            continue
        if flow.block(stripped):
            continue
        if flow.top_level and shellflow.is_exit(stripped):
            if ended is not None:
                ended.append(where)
            break
        stripped = shellflow.without_conditions(stripped)
        loop = _for(stripped)
        if loop:
            variable, items, stripped = loop
            _nest(flow.loops, where)
            view = flow.env.view()
            flow.loops.append((
                variable, shellloops.count(items, view, reader, where),
                number, shellloops.items_of(items, view, reader, where)))
            if not stripped.strip():
                continue
        elif _WHILE.match(stripped):
            _nest(flow.loops, where)
            flow.loops.append((*shellloops.while_count(
                where.text, flow.env.view()), number, None))
            continue
        _parts(flow, stripped, where)
    return flow.out


def _parts(flow, stripped, where):
    '''Read the commands of a line, part by part (``a && b; c``).'''
    for part in shellflow.parts(stripped):
        part = shellflow.ungrouped(re.sub(r'^(do|then|else|elif|if)\s+', '',
                                          part.strip()))
        if not part or part in ('do', 'then', 'else', 'done'):
            if part == 'done' and flow.loops:
                flow.loops.pop()
            continue
        if not flow.functions.read(part):    # a runner runs when called
            flow.part(part, where)


#: A variable set to a command's output: the command runs
#: (``IOPS=$(fio ...)``, ``T=`ior ...```)
_SUBSTITUTION = re.compile(r'^(?:export\s+)?\w+=(?:"?\$\((?!\()'
                           r'([^()]*(?:\([^()]*\)[^()]*)*)\)"?|'
                           r'"?`([^`]*)`"?)\s*(?:#.*)?$')
#: A drop of the page cache (written to, or set with sysctl)
_DROP_CACHES = re.compile(r'/proc/sys/vm/drop_caches|vm\.drop_caches\s*=')
#: A lookup of a program's path (``$(which ior)``): the program's name
_LOOKUP = re.compile(r'^\s*(?:which|type|command\s+-v)\s+\S+\s*$')


class _Flow:
    '''A script as :func:`commands` reads it: its variables, loops,
    blocks (functions, ifs, cases), functions and here-documents.'''

    def __init__(self, env, reader):
        self.env, self.reader = env, reader
        self.loops = []     # (variable, count or None, line, items)
        self.blocks = []    # 'function', 'if', 'case'
        self.functions = shellflow.Functions()
        self.files = {}
        #: the terminator of a job script read as the script's own lines
        #: (``sbatch << EOF``), or None
        self.stdin_script = None
        self.out = []
        self._brace = False       # a function's head without its {
        self.errexit = False      # set -e: a failing command ends it
        self.drops = 0            # page cache drops so far
        self.dead = None          # a false if's branch being passed over

    def dead_branch(self, stripped):
        '''Pass over the branch of an ``if`` false on the script's values
        (:mod:`.shellbranches`); True where the line is in it.'''
        if self.dead is not None:
            if self.dead.skips(stripped):
                return True
            closed, self.dead = self.dead.closed, None
            if closed and self.blocks:
                self.blocks.pop()        # its fi
            return closed
        if shellbranches.opens(stripped) and shellbranches.is_false(
                stripped, self.env.view()):
            self.block(stripped)
            self.dead = shellbranches.DeadBranch()
            return True
        return False

    @property
    def top_level(self):
        return not self.loops and not self.blocks

    def read_document(self, lines, document):
        '''Read a here-document's body (never commands) into
        :attr:`files` by the name of the file it writes.'''
        terminator, tabs, target = document
        body = []
        for _, line in lines:
            if (line.lstrip('\t') if tabs else line) == terminator or \
                    line.strip() == terminator:
                break
            body.append(line)
        if target:
            text = '\n'.join(body) + '\n'
            # cat > "$CONFIG" <<EOF: the file the variable names
            target = shellvars.expand(target, self.env.view()).strip('"\'')
            self.files[target] = text
            self.files[words.program_name(target)] = text

    def block(self, stripped):
        '''Follow functions, ifs and cases and the ends of loops; True
        where the line is nothing more.'''
        head = shellflow.function_head(stripped)
        if head:
            self.blocks.append('function')
            self.functions.enter(head[0])
            self._brace = not head[1]
            return True
        if stripped == '{' and self._brace:
            self._brace = False
            return True
        if re.match(r'^if\b', stripped) and not re.search(r'\bfi\s*;?$',
                                                          stripped):
            self.blocks.append('if')
        elif re.match(r'^case\b', stripped) and 'esac' not in stripped:
            self.blocks.append('case')
        if stripped in ('done', 'fi', 'esac', '}') or \
                re.match(r'^(done|fi|esac)\b', stripped):
            if stripped.startswith('done') and self.loops:
                self.loops.pop()
            elif stripped.startswith(('fi', 'esac', '}')) and self.blocks:
                if self.blocks.pop() == 'function':
                    self.functions.leave()
            return True
        return False

    def part(self, part, where):
        '''The commands of one part of a line.'''
        if _DROP_CACHES.search(part):
            self.drops += 1
        try:
            split = words.split(part)
        except Unreadable:
            split = []
        if split and split[0] in ('source', '.') and len(split) > 1 and \
                words.program_name(split[1]) in io500v1.DRIVERS:
            driver = words.program_name(split[1])
            for line in io500v1.DRIVERS[driver]:
                for command in self._add(line, where):
                    command.where = Where(where.file, where.line,
                                          f'[{driver}] '
                                          f'{" ".join(command.words)}')
            return
        if split and split[0] in ('source', '.') and len(split) > 1 and \
                words.program_name(split[1]) in harnesses.RUNNERS:
            self.functions.runners.update(
                harnesses.RUNNERS[words.program_name(split[1])])
            return
        called = self.functions.call(split) if split else None
        if called is not None and self.reader is not None and \
                len(called) > len(part):
            self.reader.spend(len(called) - len(part), where)
        substituted = _SUBSTITUTION.match(part)
        if substituted and _LOOKUP.match(substituted[1] or
                                         substituted[2] or ''):
            substituted = None          # IOR=$(which ior): IOR is ior
        if substituted and called is None:
            for inner in shellflow.parts(substituted[1] or substituted[2]):
                self._add(inner.strip(), where)
            return
        self._add(called if called is not None else part, where)

    def _add(self, part, where):
        added = _commands_of(part, where, self.loops, self.env, self.reader)
        for command in added:
            command.files = self.files
            command.errexit = self.errexit
            command.drops = self.drops
            self.out.append(command)
        return added


def _nest(loops, where):
    if len(loops) >= bounds.MAX_LOOP_DEPTH:
        raise Unreadable(f'{where}: loops nested more than '
                         f'{bounds.MAX_LOOP_DEPTH} deep (a for or while '
                         f'without its done?), what the audit follows')


def _for(stripped):
    '''(variable, items, the command after ``; do``) of a ``for`` line,
    or None.'''
    head = _FOR.match(stripped)
    if not head:
        return None
    rest = stripped[head.end():]
    do = _DO.search(rest)
    if do is None:
        return head[1], rest.rstrip(), ''
    return head[1], rest[:do.start()].rstrip(), rest[do.end():]


#: Programs that run the script they read on their standard input (a job
#: script given to ``sbatch << EOF``, a shell's: :data:`.words.SHELLS`)
_STDIN_RUNNERS = ('sbatch', 'qsub', 'bsub', *words.SHELLS)


def _runs_stdin(line, env):
    '''Whether a line gives its here-document to a program that runs it
    (``sbatch << EOF``, ``$submit << EOF`` with submit="sbatch ...").'''
    first = shellvars.expand(line, env).split()
    return bool(first) and words.program_name(first[0]) in _STDIN_RUNNERS


#: A Windows console's prompt (``D:\\>``, ``PS C:\\fio>``) and the
#: program's path after it (``c:\\fio\\fio.exe``: its backslashes are
#: the path's, not the shell's escapes)
_WINDOWS_PROMPT = re.compile(r'^(?:PS )?[A-Za-z]:\\[^>]*>\s*(\S+)')


def _windows_prompt(line):
    '''A line of a Windows console transcript as the command it runs.'''
    match = _WINDOWS_PROMPT.match(line)
    if match is None:
        return line
    return match[1].replace('\\', '/') + line[match.end():]


#: The shell's words that declare variables (``export``, a function's
#: ``local``), their options before the assignments
_DECLARES = ('export', 'local', 'declare', 'typeset', 'readonly')


def _commands_of(part, where, loops, env, reader):
    '''The commands of one part of a line: one per configuration of the
    loop variables it uses (the first :data:`~.bounds.MAX_SWEEP`), none
    where it only sets variables (they go to ``env``).'''
    if shellarrays.assign(part, env, env.view(), reader, where) or \
            shellloops.derive(part, loops, env):
        return []
    part = shellloops.with_derived(part, env, reader, where)
    repeats, said = shellloops.repeats(loops, part)
    sweep, total = shellloops.sweep(loops, part)
    out = []
    for values in sweep:
        scope = ChainMap(values, env.view())
        expanded = commandwords.substituted(
            shellvars.expand(part, scope, reader, where))
        if out and reader is not None:
            reader.spend(len(expanded), where)     # one more configuration
        try:
            split = words.split(expanded)
        except Unreadable:
            break
        split = commandwords.program_words(split)
        if not split:
            break
        if split[0] == 'cd' and len(split) == 2:
            env.set('PWD', split[1])     # where a relative path is
            break
        if split[0] in _DECLARES:      # local -r cmd=...: an assignment
            split = split[1:]
            while split and split[0].startswith('-'):
                split = split[1:]
        if split and all(re.match(r'^\w+\+?=', w) for w in split):
            for word in split:
                key, _, value = word.partition('=')
                if key.endswith('+'):            # NAME+=value appends
                    key = key[:-1]
                    value = env.view().get(key, '') + value
                env.set(key, value)
            break
        out.append(Command(where, split, repeats, said, scope))
    if out and total > len(out):
        out[-1].unswept = total - len(out)
    return out
