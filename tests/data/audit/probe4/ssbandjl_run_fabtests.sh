cd /home/xb/project/libfabric/libfabric/fabtests/scripts
# bash -x ./runfabtests.sh
./runfabtests.sh

