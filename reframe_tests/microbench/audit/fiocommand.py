'''fio's command line as fio reads it (``getopt_long_only``): its jobs
(``--name`` starts one, options before the first are every job's
defaults), the job files it names (read by :mod:`.fiojob`), its
``--section`` choices; an option fio would reject refused.'''

import bisect
import functools
from dataclasses import dataclass

from microbench.audit import bounds, options
from microbench.audit.bounds import excerpt
from microbench.audit.findings import Unreadable
from microbench.audit.fiojob import (EXTERNAL_ENGINE, Job, Option,
                                     canonical, check_option, expand_value,
                                     read_job_file)
from microbench.audit.fiosettings import Settings
from microbench.audit.getopt import UNSET


def _long_only(text):
    '''Whether ``-text`` is one of fio's long options given with one dash
    (fio reads its command line with ``getopt_long_only``: ``-name=x``,
    ``-rw read``; measured with fio 3.33 here).'''
    return bool(long_option(text.partition('=')[0]))


def fio_options_only(argv):
    '''Whether the words after a program the input does not name
    (``sudo $1 -directory=/mnt -rw=rw -name=rw ...``) are fio's options
    only: a job named, three of its options given as ``name=value``, no
    word fio would refuse.'''
    named, valued = set(), False
    for word in argv[1:]:
        if not word.startswith('-') and valued:
            valued = False               # -iodepth 1: its value
            continue
        key, eq, _ = word.lstrip('-').partition('=')
        if not word.startswith('-') or not key or \
                not long_option(key) and key not in options.fio():
            return False
        if key in options.fio():
            named.add(key)
        valued = not eq
    return 'name' in named and len(named) >= 3


def _short_or_long(word):
    '''A word of one dash as ``getopt_long_only`` reads it: ``-o`` (a
    letter of fio's option string) is that short option, never a long
    option's prefix; ``-name=x`` a long option; ``-ofile`` the short
    option with its value where no long option starts so.'''
    if not word.startswith('-') or word.startswith('--') or word == '-':
        return word
    short = options.FIO_SHORT.get(word[1])
    if short and len(word) == 2:
        return f'--{short}'
    if _long_only(word[1:]):
        return '-' + word         # getopt_long_only: -name=x is --name=x
    if short:
        return f'--{short}={word[2:]}'
    return word


@functools.lru_cache(maxsize=None)
def _long_names():
    '''fio's long options as its getopt sees them, sorted: the command
    line's and every job option (aliases too); then the engines' and
    profiles' (fio adds them once their engine or profile is named).'''
    where = options.fio_where()
    general = set(options.FIO_COMMAND_LINE) | {
        name for name in options.fio() if where.get(name, 'job') == 'job'}
    return sorted(general), sorted(set(options.fio()) - general)


def long_option(key):
    '''The long options a command-line ``--key`` is, as ``getopt_long_only``
    reads it: the one it names exactly, else every one it is the start of
    (one: that option; several: ambiguous, fio stops); the engines'
    options only where no general one matches.  Measured with fio 3.33
    here: ``--nrfile=1`` is ``--nrfiles``, ``--nr_f`` is ``--nr_files``,
    ``--buffer=1`` is ambiguous.'''
    if key in options.FIO_COMMAND_LINE or key in options.fio():
        return (key,)
    for names in _long_names():
        at = bisect.bisect_left(names, key)
        found = []
        while key and at < len(names) and names[at].startswith(key):
            found.append(names[at])
            at += 1
        if found:
            return tuple(found)
    return ()


#: fio's options that print and exit (no job runs)
PRINTS = ('--version', '-v', '--help', '-h', '--cmdhelp', '--enghelp')


def prints_only(argv):
    '''Whether fio's ``argv`` (program first) runs no job: it prints its
    version or help and exits (``fio --version``), or names nothing.'''
    return len(argv) < 2 or any(word.split('=', 1)[0] in PRINTS
                                for word in argv[1:])


@dataclass
class CommandLine:
    '''A fio command line read: its jobs, the job files it names, and the
    settings of every job (``defaults``).'''

    jobs: list
    job_files: list
    defaults: list
    sections: list
    words: list


def _resolved(key, where):
    '''The option ``--key`` names (:func:`long_option`); ``key`` itself
    where it names none (:func:`check_option` refuses it).

    :raises Unreadable: where it is the start of several.
    '''
    names = long_option(key)
    if len(names) > 1:
        raise Unreadable(f'{where}: fio option {excerpt("--" + key)} is '
                         f'ambiguous: {", ".join(names[:4])}'
                         f'{", ..." if len(names) > 4 else ""} (fio would '
                         f'stop)')
    return names[0] if names else key


def read_command_line(argv, where, env=None, reader=None):
    '''The jobs of fio's ``argv`` (program first); ``reader(path)`` reads
    a job file it names (None: its jobs are not read).

    :raises Unreadable: on an option fio would reject.
    '''
    env = env if env is not None else {}
    defaults, sections, jobs, files, current = (Settings(canonical), [], [],
                                                [], None)
    unread, unset = [], []
    words = list(argv[1:])
    external = any(EXTERNAL_ENGINE.match(word) for word in words)
    bounds.options_read(len(words), where)
    i = 0
    while i < len(words):
        word, start = words[i], i
        i += 1
        word = _short_or_long(word)
        if UNSET.match(word):
            unset.append(word)  # a variable the input does not set: said
            continue
        if not word.startswith('--'):
            if word.startswith('-') and word != '-':
                raise Unreadable(f'{where}: fio has no option '
                                 f'{excerpt(word)} (its options are '
                                 f'--name=value, or -name=value)')
            files.append(word)
            continue
        key, eq, value = word[2:].partition('=')
        value = value if eq else None
        key = _resolved(key, where)
        if key in options.FIO_COMMAND_LINE:
            takes = options.FIO_COMMAND_LINE[key]
            if takes and value is None and i < len(words):
                value, i = words[i], i + 1
            if key == 'section':
                sections.append(value)
            continue
        if value is None and key in options.fio() and \
                options.fio()[key] not in options.FIO_VALUELESS and \
                i < len(words) and not words[i].startswith('-'):
            value, i = words[i], i + 1      # getopt: --bs 4k
        check_option(key, value, where, external)
        value = expand_value(value, env, reader, where)
        option = Option(key, value, where, 'command line', start,
                        i - start)
        if key == 'name':
            if current is not None:
                jobs.append(current)
            if value == 'global':
                current = None
                continue
            current = Job(value, where, defaults.inherited())
            current.own.append(option)
            continue
        if current is None:
            defaults.append(option)
        else:
            current.own.append(option)
    if current is not None:
        jobs.append(current)
    if sections:
        jobs = [job for job in jobs if job.name in sections]
    if not jobs and not files:
        # fio "$JOBFILE" (JOBFILE=$1): the job file the caller names
        files = unset
    if not jobs and not files:
        raise Unreadable(f'{where}: no --name and no job file: fio would '
                         f'run no job ("No job(s) defined")')
    read = []
    for name in files:
        if reader is None:
            unread.append(name)
            continue
        try:
            text = reader(name)
        except Unreadable as err:
            raise Unreadable(f'{where}: job file {err}') from None
        read.append(read_job_file(name, text, defaults.options, sections,
                                  env, reader))
    return CommandLine(jobs, read or unread, defaults.options, sections,
                       argv)
