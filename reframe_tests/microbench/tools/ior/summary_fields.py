'''Typed members of IOR's JSON summary: text, integers and figures read
from an object of the summary, each rejected, naming where it was, when it
is missing or of another type.'''

from microbench.suite.output import OutputError, member, number


def _text(obj, key, where):
    value = member(obj, key, where)
    if not isinstance(value, str):
        raise OutputError(f'{where} "{key}" is {value!r}, not text')

    return value


def _int(obj, key, where):
    return number(member(obj, key, where), f'{where} {key}',
                  positive=False, integer=True)


def _float(obj, key, where):
    return number(member(obj, key, where), f'{where} {key}', positive=False)
