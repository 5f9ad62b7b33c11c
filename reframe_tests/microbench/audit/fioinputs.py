'''fio's inputs judged job by job (:func:`.fio.judge_job`): a command line
and the job files it names, or a job file given as the input itself.'''

import os
from dataclasses import replace

from microbench.audit import (bounds, fio, fioacross, fiocommand, fiojob,
                              fiorewrite, getopt)
from microbench.audit.bounds import excerpt
from microbench.audit.context import repeated_unless
from microbench.audit.findings import (Finding, Invocation, Unreadable,
                                       depends)


def judge_command(launch, where, context, reader):
    '''Every job of a fio command line (and of the job files it names).'''
    try:
        command = fiocommand.read_command_line(launch.argv, where, context.env,
                                           reader)
    except FileNotFoundError as err:
        command = fiocommand.read_command_line(launch.argv, where, context.env)
        missing = Invocation('fio', where)
        named = os.path.basename(err.filename)
        missing.not_judged.append(
            f'job file {named}: a variable the input does not set (its '
            f'caller names the file), its jobs are not judged'
            if getopt.UNSET.match(named) else
            f'job file {err.filename}: not found here, its jobs are not '
            f'judged')
        _missing(missing, context, err.filename)
        return [missing] + _judged(command, launch, context, where,
                                   said=True)
    return _judged(command, launch, context, where)


def _missing(missing, context, name):
    '''What a run whose job file is not here depends on: the pitfalls of
    fio's defaults (S1: buffered writes, ``direct=0``; S2: a new file
    laid out first, ``fallocate``), as IOR's ``-f`` leaves S4 depending
    on its script; M1 (fio repeats it only if the file says so:
    ``loops=``).'''
    named = excerpt(os.path.basename(name))
    if context.jobs_here:
        missing.not_judged.append(f'{named}: the input\'s own fio jobs (a '
                                  f'ConfigMap\'s, mounted as files) are '
                                  f'judged where they are written')
    for pitfall, default in () if context.jobs_here else _DEFAULTS:
        missing.findings.append(Finding(
            pitfall, f'job file {named}, not here: {default}',
            missing.where, depends(f'what {named} sets')))
    runs = repeated_unless(context, missing, 'fio reports one figure per '
                           'job', named)
    if runs is not None:
        missing.findings.append(runs)


#: The pitfalls fio's defaults have, where a job writes: what a job file
#: not here may leave as they are
_DEFAULTS = (
    ('S1', 'fio writes through the page cache unless a job sets direct=1 '
           'or a sync option'),
    ('S2', 'fio lays a new file out (fallocate) before a job times its '
           'writes unless a job sets fallocate=none'))


def _judged(command, launch, context, where, said=False):
    '''The invocations of a command line's jobs; its job files not read
    said each (``said``: already said).'''
    files = [fiorewrite.FileSource(f.path, '\n'.join(f.lines),
                                   launch.text(), len(f.jobs))
             for f in command.job_files if isinstance(f, fiojob.JobFile)]
    source = fiorewrite.CommandSource(launch, files, len(command.jobs))
    jobs = [*command.jobs, *(job for job_file in command.job_files
                             if isinstance(job_file, fiojob.JobFile)
                             for job in job_file.jobs)]
    out = _each(jobs, context, source)
    for job_file in command.job_files:
        if not isinstance(job_file, fiojob.JobFile) and not said:
            missing = Invocation('fio', command.jobs[0].where
                                 if command.jobs else where)
            missing.not_judged.append(f'job file {job_file}: not read')
            out.append(missing)
    return out


def judge_embedded(path, jobs, context, reader, refused):
    '''Every job of the fio job files another file holds (a YAML
    ConfigMap's string values: (the line each starts on, its text)),
    each where it is in that file; why fio would refuse one is appended
    to ``refused``, as a script's refused command is.'''
    found = []
    for first, text in jobs:
        try:
            judged = judge_job_file(path, text, context.with_(
                whole_run=False), reader)
        except Unreadable as err:
            refused.append(str(err))
            continue
        for invocation in judged:
            invocation.where = _moved(invocation.where, first)
            for finding in invocation.findings:
                finding.where = _moved(finding.where, first)
        found += judged
    return found


def _moved(where, first):
    '''Where a line of a text that starts on line ``first`` of its file
    is in the file.'''
    return replace(where, line=first + where.line - 1) if where.line \
        else where


def judge_job_file(path, text, context, reader, sections=()):
    '''Every job of a fio job file given as the input itself.'''
    location = None
    if reader is not None:
        location = os.path.join(reader.directory, os.path.basename(path))
    job_file = fiojob.read_job_file(path, text, (), sections, context.env,
                                    reader, location)
    source = fiorewrite.FileSource(path, text, jobs=len(job_file.jobs))
    return _each(job_file.jobs, context, source)


def _each(jobs, context, source):
    '''Every job judged, within the caps, each with what a job before it
    left in the page cache (:mod:`.fioacross`).'''
    written = fioacross.written_before(jobs)
    return bounds.judged(jobs, lambda job: [fio.judge_job(
        job, context, source, written.get(id(job)))], 'jobs')
