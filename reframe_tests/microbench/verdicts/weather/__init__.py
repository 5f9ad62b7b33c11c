'''``microbench weather``: (being written).'''

HELP = 'weather (being written)'


def add_arguments(parser):
    parser.set_defaults(handler=run)


def run(args):
    raise NotImplementedError('microbench weather')
