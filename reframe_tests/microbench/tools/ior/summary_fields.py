'''Typed members of IOR's JSON summary: text, integers and figures read
from an object of the summary, each rejected, naming where it was, when it
is missing or of another type; and how near a figure it printed must be to
one computed (:func:`near`, for what ``ior.out`` states again too).'''

from microbench.suite.output import OutputError, member, number

#: IOR prints every figure of its JSON summary with 4 decimals: half its
#: last digit
HALF = 0.5e-4


def near(said, computed, slack):
    '''Whether ``said`` (printed with 4 decimals) is ``computed`` up to
    ``slack`` (what the rounding of its inputs allows).'''
    return abs(said - computed) <= slack + 1e-12 * max(abs(said),
                                                        abs(computed))


def text_of(obj, key, where):
    value = member(obj, key, where)
    if not isinstance(value, str):
        raise OutputError(f'{where} "{key}" is {value!r}, not text')

    return value


def int_of(obj, key, where):
    return number(member(obj, key, where), f'{where} {key}',
                  positive=False, integer=True)


def float_of(obj, key, where):
    return number(member(obj, key, where), f'{where} {key}', positive=False)
