'''The block device under a directory, as sysfs names it.'''

import os
import subprocess


def disk_of(where):
    '''The whole disk under ``where`` as sysfs names it, or None (not on
    a block device: tmpfs, overlay, NFS).'''
    source = subprocess.run(['findmnt', '-no', 'SOURCE', '--target', where],
                            capture_output=True, text=True).stdout.strip()
    if not source.startswith('/dev/'):
        return None
    disk = subprocess.run(['lsblk', '-no', 'PKNAME', source],
                          capture_output=True, text=True).stdout.split()
    name = disk[0] if disk else os.path.basename(os.path.realpath(source))
    return name if os.path.isdir(f'/sys/block/{name}') else None
