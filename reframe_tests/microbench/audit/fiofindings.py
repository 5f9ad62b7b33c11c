'''A fio job's finding as every fio rule makes it (:mod:`.fio`,
:mod:`.fiodata`, :mod:`.fioacross`): where it is, the job rewritten with
its fix, and every fix of a job's findings together.'''

from microbench.audit.findings import Finding


def where_of(job, option):
    '''Where ``option`` is set, else where the job is.'''
    return option.where if option is not None else job.where


def finding(source, job, pitfall, evidence, where, certainty, fix,
            note=None, measure=None):
    '''A finding of ``job``; ``source`` rewrites the input with ``fix``
    (options to set, None to drop), the realistic form.'''
    found = Finding(pitfall, evidence, where, certainty,
                    source.rewrite(job, fix) if fix is not None else None,
                    note, measure)
    found.fix = fix
    found.job = job
    return found


def all_fixes(found):
    '''Every fix of an invocation's findings, later ones winning.'''
    fixes = {}
    for one in found.findings:
        fixes.update(one.fix or {})
    return fixes
