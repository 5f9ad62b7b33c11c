'''``microbench limits``: (being written).'''

HELP = 'limits (being written)'


def add_arguments(parser):
    parser.set_defaults(handler=run)


def run(args):
    raise NotImplementedError('microbench limits')
