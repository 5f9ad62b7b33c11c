'''fio's profiles' options (profiles/tiobench.c, profiles/act.c): fio
registers them at start, so any job takes them, and only their profile
(``profile=tiobench``, ``profile=act``) reads them.  A job that sets one
without its profile runs as if it had not (fio 3.33 here: ``threads=1``
starts processes, not threads): said, so a reader who meant fio's own
``thread`` knows.'''

import functools

from microbench.audit import options


@functools.lru_cache(maxsize=None)
def _profile_options():
    '''{option: the profile that reads it} of fio's profiles' options.'''
    return {name: defined.split(':', 1)[1]
            for name, defined in options.fio_where().items()
            if defined.startswith('profile:')}


def unused(job):
    '''The notes of the profiles' options a job sets without their
    profile: each looked up (a bisection, :mod:`.fiosettings`), never the
    job's every setting walked (a [global] of G lines before J jobs made
    that J x G).'''
    profile = job.value('profile')
    notes = []
    for name, owner in _profile_options().items():
        option = job.last(name) if owner != profile else None
        if option is None or option.name != name:
            continue
        said = option.name + (f'={option.value}' if option.value
                              is not None else '')
        notes.append(f'{said}: an option of fio\'s {owner} profile, which '
                     f'this job does not run: fio takes it and does nothing '
                     f'with it')
    return notes
