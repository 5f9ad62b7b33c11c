if [ $# -eq 0 ] ; then
   echo "Server address required"
   exit 1
fi

echo Running fi_info
fi_info
echo ...done
sleep 3
echo Running fi_msg
fi_msg &
sleep 3
fi_msg $1
echo ...done 
sleep 3
echo Running fi_msg_pingpong
fi_msg_pingpong -I 5 &
sleep 3
fi_msg_pingpong -I 5 $1
echo ...done 
sleep 3
echo Running fi_msg_rma write
fi_msg_rma -I 5 -o write &
sleep 3
fi_msg_rma -I 5 -o write $1
echo ...done 
sleep 3
echo Running fi_msg_rma read
fi_msg_rma -I 5 -o read &
sleep 3
fi_msg_rma -I 5 -o read $1
echo ...done 
sleep 3
echo Running fi_msg_rma writedata
fi_msg_rma -I 5 -o writedata &
sleep 3
fi_msg_rma -I 5 -o writedata $1
echo ...done 
sleep 3
echo Running fi_rdm
fi_rdm &
sleep 3
fi_rdm $1
echo ...done 
sleep 3
echo Running fi_rdm_rma_simple
fi_rdm_rma_simple &
sleep 3
fi_rdm_rma_simple $1
echo ...done 
sleep 3
echo Running fi_dgram
fi_dgram &
sleep 3
fi_dgram $1
echo ...done 
sleep 3
echo Running fi_dgram_waitset
fi_dgram_waitset &
sleep 3
fi_dgram_waitset $1
echo ...done 
sleep 3
echo Running fi_rdm_pingpong
fi_rdm_pingpong -I 5 &
sleep 3
fi_rdm_pingpong -I 5 $1
echo ...done 
sleep 3
echo Running fi_rdm_tagged_pingpong
fi_rdm_tagged_pingpong -I 5 &
sleep 3
fi_rdm_tagged_pingpong -I 5 $1
echo ...done 
sleep 3
echo Running fi_rdm_tagged_search
fi_rdm_tagged_search &
sleep 3
fi_rdm_tagged_search $1
echo ...done 
sleep 3
echo Running fi_rdm_cntr_pingpong
fi_rdm_cntr_pingpong -I 5 &
sleep 3
fi_rdm_cntr_pingpong -I 5 $1
echo ...done 
sleep 3
echo Running fi_rdm_rma write
fi_rdm_rma -I 5 -o write &
sleep 3
fi_rdm_rma -I 5 -o write $1
echo ...done 
sleep 3
echo Running fi_rdm_rma read
fi_rdm_rma -I 5 -o read &
sleep 3
fi_rdm_rma -I 5 -o read $1
echo ...done 
sleep 3
echo Running fi_rdm_rma writedata
fi_rdm_rma -I 5 -o writedata &
sleep 3
fi_rdm_rma -I 5 -o writedata $1
echo ...done 
sleep 3
echo Running fi_rdm_atomic
fi_rdm_atomic -I 5 &
sleep 3
fi_rdm_atomic -I 5 $1
echo ...done 
sleep 3
echo Running fi_ud_pingpong
fi_ud_pingpong -I 5 &
sleep 3
fi_ud_pingpong -I 5 $1
echo ...done 
sleep 3
echo Running fi_cq_data
fi_cq_data &
sleep 3
fi_cq_data $1
echo ...done 
sleep 3
echo Running fi_poll
fi_poll &
sleep 3
fi_poll $1
echo ...done 
sleep 3
echo Running fi_rdm_inject_pingpong
fi_rdm_inject_pingpong -I 5 &
sleep 3
fi_rdm_inject_pingpong -I 5 $1
echo ...done 
sleep 3
echo Running fi_rdm_multi_recv
fi_rdm_multi_recv -I 5 &
sleep 3
fi_rdm_multi_recv -I 5 $1
echo ...done 
sleep 3
echo Running fi_scalable_ep
fi_scalable_ep &
sleep 3
fi_scalable_ep $1
echo ...done 
sleep 3
echo Running fi_rdm_shared_ctx
fi_rdm_shared_ctx &
sleep 3
fi_rdm_shared_ctx $1
echo ...done 
sleep 3
echo Running fi_eq_test
fi_eq_test
echo ...done 
sleep 3
echo Running fi_av_test
fi_av_test
echo ...done 
sleep 3
echo Running fi_size_left_test
fi_size_left_test
echo ...done 
sleep 3
echo Running fi_rc_pingpong
fi_rc_pingpong -n 5 &
sleep 3
fi_rc_pingpong -n 5 $1
echo ...done 
sleep 3
echo Running fi_cmatose
fi_cmatose -C 5 &
sleep 3
fi_cmatose -s $1 -C 5 
echo ...done 
sleep 3
echo fabtest
fabtest -x &
sleep 3
fabtest $1
echo ...done
