'''fio's profiles' options (profiles/tiobench.c, profiles/act.c): fio
registers them at start, so any job takes them, and only their profile
(``profile=tiobench``, ``profile=act``) reads them.  A job that sets one
without its profile runs as if it had not (fio 3.33 here: ``threads=1``
starts processes, not threads): said, so a reader who meant fio's own
``thread`` knows.'''

from microbench.audit import options


def unused(job):
    '''The notes of the profiles' options a job sets without their
    profile.'''
    where = options.fio_where()
    profile = job.value('profile')
    notes = []
    for option in job.settings:
        defined = where.get(option.name, '')
        if defined.startswith('profile:') and \
                defined.split(':', 1)[1] != profile:
            said = option.name + (f'={option.value}' if option.value
                                  is not None else '')
            notes.append(f'{said}: an option of fio\'s '
                         f'{defined.split(":", 1)[1]} profile, which this '
                         f'job does not run: fio takes it and does nothing '
                         f'with it')
    return notes
