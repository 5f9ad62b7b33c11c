'''What each base class of the suite needs its checks to set, and the one
line that names what a check forgot (as hpctestlib's ``required``
variables are named).

A check forgetting its ``knob`` used to fail inside the first hook that
read it (``attribute name must be string, not 'NoneType'``, a line of
the library).  Each base class lists here what a subclass must set, and
its first ``init`` hook calls :func:`check`: ReFrame then skips the check
when it loads it, saying which attributes, of which base class, are
missing.  A ReFrame ``variable`` without a value (``required``) is named
by ReFrame itself when read; these are class attributes, fixtures and
methods, which ReFrame cannot know a subclass must set.
'''

from reframe.core.exceptions import ReframeSyntaxError


class Needs:
    '''What a subclass of a base class sets: class attributes that must
    not be empty, fixtures it declares, methods it overrides.'''

    def __init__(self, attributes=(), fixtures=(), methods=()):
        self.attributes = attributes
        self.fixtures = fixtures
        self.methods = methods


#: Each base class's needs, by its name
NEEDS = {
    # variants may be set at setup (ior_scaling's sweep), programs by
    # launched() (the network tools): neither is needed at init
    'Rounds': Needs(attributes=('reader',),
                    methods=('tools_needed', 'variant_command')),
    'VariantCheck': Needs(attributes=('knob', 'main_figures'),
                          fixtures=('rounds',)),
    'GapCheck': Needs(attributes=('pitfall', 'gaps'),
                      fixtures=('rounds',)),
}


def forgotten(cls, base):
    '''What the class ``cls`` forgot of what ``base`` (a class of
    :data:`NEEDS`) needs, one phrase each.'''
    needs = NEEDS[base.__name__]
    missing = [f'{name} (a class attribute)' for name in needs.attributes
               if getattr(cls, name, None) in (None, (), {}, '')]
    missing += [f'{name} (a fixture: {name} = fixture(...))'
                for name in needs.fixtures if name not in cls.fixture_space]
    missing += [f'{name}() (a method)' for name in needs.methods
                if getattr(cls, name) is getattr(base, name)]
    return missing


def check(test, base):
    '''Raise, naming them, where ``test`` forgot what ``base`` needs.'''
    missing = forgotten(type(test), base)
    if missing:
        raise ReframeSyntaxError(
            f'{type(test).__name__} is a {base.__name__} and does not set '
            f'{", ".join(missing)} (microbench/suite/required.py)')
