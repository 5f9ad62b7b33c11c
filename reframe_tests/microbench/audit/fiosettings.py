'''The settings fio jobs inherit, held once for every job.

The options before a command line's first ``--name`` and those of
``[global]`` sections are the defaults of every job after them.  Copied
into each job, a ``[global]`` of G lines before J jobs costs J x G (a
file of 5000 sections held 5000 copies, and every look-up walked them);
here they are one list, appended to as the input is read, and a job holds
how many of its options it inherits (:class:`Inherited`).  A look-up of
the last setting of an option is a bisection in the positions of that
option, whatever the number of jobs.
'''

import bisect
import itertools


class Settings:
    '''Options every later job inherits, in order, indexed by option
    (``canonical(name)``: aliases as one) and by name as written.'''

    def __init__(self, canonical, options=()):
        self._canonical = canonical
        self.options = []
        self._by_option = {}
        self._by_name = {}
        for option in options:
            self.append(option)

    def append(self, option):
        index = len(self.options)
        self.options.append(option)
        self._by_option.setdefault(self._canonical(option.name),
                                   []).append(index)
        self._by_name.setdefault(option.name, []).append(index)

    def inherited(self):
        '''What a job starting now inherits: the options so far.'''
        return Inherited(self, len(self.options))


def _last_before(positions, count):
    '''The last of the sorted ``positions`` below ``count``, or -1.'''
    at = bisect.bisect_left(positions, count) - 1
    return positions[at] if at >= 0 else -1


class Inherited:
    '''The first ``count`` options of a :class:`Settings`: what one job
    inherits.'''

    def __init__(self, settings=None, count=0):
        self.settings = settings
        self.count = count

    def __len__(self):
        return self.count

    def __iter__(self):
        if self.settings is None:
            return iter(())
        return itertools.islice(self.settings.options, self.count)

    def last(self, options):
        '''The last inherited setting of any of ``options`` (canonical
        names), or None.'''
        if self.settings is None:
            return None
        best = -1
        for option in options:
            best = max(best, _last_before(
                self.settings._by_option.get(option, ()), self.count))
        return self.settings.options[best] if best >= 0 else None

    def names_any(self, names):
        '''Whether any inherited setting is written as one of ``names``.'''
        if self.settings is None:
            return False
        return any(_last_before(self.settings._by_name.get(name, ()),
                                self.count) >= 0 for name in names)
