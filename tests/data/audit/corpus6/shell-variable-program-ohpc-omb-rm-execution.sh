#!/usr/bin/env -S bats --report-formatter junit --formatter tap -j 2
# -*-sh-*-

load ./common/test_helper_functions || exit 1
source ./common/functions || exit 1

if [ -s ./common/TEST_ENV ]; then
	. ./common/TEST_ENV
else
	ERROR "TEST_ENV does not exist"
fi

setup() {
	CMD_TIMEOUT="6:00"
	check_rms
	export rm="$RESOURCE_MANAGER"
}

@test "[OMB] run osu_bw on 2 nodes under resource manager ($rm/$LMOD_FAMILY_COMPILER/$LMOD_FAMILY_MPI)" {
	EXE=osu_bw

	run_mpi_binary -t "$CMD_TIMEOUT" "$EXE" "-m 512" 2 2
	assert_success
}

@test "[OMB] run osu_latency on 2 nodes under resource manager ($rm/$LMOD_FAMILY_COMPILER/$LMOD_FAMILY_MPI)" {
	EXE=osu_latency

	if [[ "$LMOD_FAMILY_MPI" == "openmpi5" ]]; then
		MESSAGE_SIZE=0
	else
		MESSAGE_SIZE=512
	fi

	run_mpi_binary -t "$CMD_TIMEOUT" "$EXE" "-m $MESSAGE_SIZE" 2 2
	assert_success
}
