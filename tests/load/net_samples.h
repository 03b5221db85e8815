/* SPDX-License-Identifier: MIT */
/*
 * net_samples.h - what Linux 6.18 printed in /proc/<pid>/net for the hard cases
 * (tests/procfs/hardcases.c) on the reference machine, byte for byte: net_*
 * of the process with sockets of every kind, netns_* of the one in a network
 * namespace of its own.  Included by test_load_net.c only.
 */
static const char net_dev[] =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
	"    lo:  202954     433    0    0    0     0          0         0   202954     433    0    0    0     0       0          0\n"
	"  ifb0:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0\n"
	"  ifb1:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0\n"
	"  eth0: 24833986     663    0    0    0     0          0         0    36727     453    0    0    0     0       0          0\n";

static const char net_snmp[] =
	"Ip: Forwarding DefaultTTL InReceives InHdrErrors InAddrErrors ForwDatagrams InUnknownProtos InDiscards InDelivers OutRequests OutDiscards OutNoRoutes ReasmTimeout ReasmReqds ReasmOKs ReasmFails FragOKs FragFails FragCreates OutTransmits\n"
	"Ip: 2 64 1055 0 0 0 0 0 1055 837 0 0 0 0 0 0 0 0 0 837\n"
	"Icmp: InMsgs InErrors InCsumErrors InDestUnreachs InTimeExcds InParmProbs InSrcQuenchs InRedirects InEchos InEchoReps InTimestamps InTimestampReps InAddrMasks InAddrMaskReps OutMsgs OutErrors OutRateLimitGlobal OutRateLimitHost OutDestUnreachs OutTimeExcds OutParmProbs OutSrcQuenchs OutRedirects OutEchos OutEchoReps OutTimestamps OutTimestampReps OutAddrMasks OutAddrMaskReps\n"
	"Icmp: 1 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"IcmpMsg: InType3\n"
	"IcmpMsg: 1\n"
	"Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors\n"
	"Tcp: 1 200 120000 -1 67 51 2 6 5 1045 828 0 0 9 0\n"
	"Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
	"Udp: 35 0 0 43 0 0 0 0 0\n"
	"UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
	"UdpLite: 0 0 0 0 0 0 0 0 0\n";

static const char net_snmp6[] =
	"Ip6InReceives                   \t34\n"
	"Ip6InHdrErrors                  \t0\n"
	"Ip6InTooBigErrors               \t0\n"
	"Ip6InNoRoutes                   \t0\n"
	"Ip6InAddrErrors                 \t0\n"
	"Ip6InUnknownProtos              \t0\n"
	"Ip6InTruncatedPkts              \t0\n"
	"Ip6InDiscards                   \t0\n"
	"Ip6InDelivers                   \t34\n"
	"Ip6OutForwDatagrams             \t0\n"
	"Ip6OutRequests                  \t43\n"
	"Ip6OutDiscards                  \t0\n"
	"Ip6OutNoRoutes                  \t0\n"
	"Ip6ReasmTimeout                 \t0\n"
	"Ip6ReasmReqds                   \t0\n"
	"Ip6ReasmOKs                     \t0\n"
	"Ip6ReasmFails                   \t0\n"
	"Ip6FragOKs                      \t0\n"
	"Ip6FragFails                    \t0\n"
	"Ip6FragCreates                  \t0\n"
	"Ip6InMcastPkts                  \t0\n"
	"Ip6OutMcastPkts                 \t8\n"
	"Ip6InOctets                     \t2984\n"
	"Ip6OutOctets                    \t3736\n"
	"Ip6InMcastOctets                \t0\n"
	"Ip6OutMcastOctets               \t672\n"
	"Ip6InBcastOctets                \t0\n"
	"Ip6OutBcastOctets               \t0\n"
	"Ip6InNoECTPkts                  \t34\n"
	"Ip6InECT1Pkts                   \t0\n"
	"Ip6InECT0Pkts                   \t0\n"
	"Ip6InCEPkts                     \t0\n"
	"Ip6OutTransmits                 \t43\n"
	"Icmp6InMsgs                     \t1\n"
	"Icmp6InErrors                   \t1\n"
	"Icmp6OutMsgs                    \t9\n"
	"Icmp6OutErrors                  \t0\n"
	"Icmp6InCsumErrors               \t0\n"
	"Icmp6OutRateLimitHost           \t0\n"
	"Icmp6InDestUnreachs             \t1\n"
	"Icmp6InPktTooBigs               \t0\n"
	"Icmp6InTimeExcds                \t0\n"
	"Icmp6InParmProblems             \t0\n"
	"Icmp6InEchos                    \t0\n"
	"Icmp6InEchoReplies              \t0\n"
	"Icmp6InGroupMembQueries         \t0\n"
	"Icmp6InGroupMembResponses       \t0\n"
	"Icmp6InGroupMembReductions      \t0\n"
	"Icmp6InRouterSolicits           \t0\n"
	"Icmp6InRouterAdvertisements     \t0\n"
	"Icmp6InNeighborSolicits         \t0\n"
	"Icmp6InNeighborAdvertisements   \t0\n"
	"Icmp6InRedirects                \t0\n"
	"Icmp6InMLDv2Reports             \t0\n"
	"Icmp6OutDestUnreachs            \t1\n"
	"Icmp6OutPktTooBigs              \t0\n"
	"Icmp6OutTimeExcds               \t0\n"
	"Icmp6OutParmProblems            \t0\n"
	"Icmp6OutEchos                   \t0\n"
	"Icmp6OutEchoReplies             \t0\n"
	"Icmp6OutGroupMembQueries        \t0\n"
	"Icmp6OutGroupMembResponses      \t0\n"
	"Icmp6OutGroupMembReductions     \t0\n"
	"Icmp6OutRouterSolicits          \t0\n"
	"Icmp6OutRouterAdvertisements    \t0\n"
	"Icmp6OutNeighborSolicits        \t4\n"
	"Icmp6OutNeighborAdvertisements  \t0\n"
	"Icmp6OutRedirects               \t0\n"
	"Icmp6OutMLDv2Reports            \t4\n"
	"Icmp6InType1                    \t1\n"
	"Icmp6OutType1                   \t1\n"
	"Icmp6OutType135                 \t4\n"
	"Icmp6OutType143                 \t4\n"
	"Udp6InDatagrams                 \t0\n"
	"Udp6NoPorts                     \t0\n"
	"Udp6InErrors                    \t0\n"
	"Udp6OutDatagrams                \t0\n"
	"Udp6RcvbufErrors                \t0\n"
	"Udp6SndbufErrors                \t0\n"
	"Udp6InCsumErrors                \t0\n"
	"Udp6IgnoredMulti                \t0\n"
	"Udp6MemErrors                   \t0\n"
	"UdpLite6InDatagrams             \t0\n"
	"UdpLite6NoPorts                 \t0\n"
	"UdpLite6InErrors                \t0\n"
	"UdpLite6OutDatagrams            \t0\n"
	"UdpLite6RcvbufErrors            \t0\n"
	"UdpLite6SndbufErrors            \t0\n"
	"UdpLite6InCsumErrors            \t0\n"
	"UdpLite6MemErrors               \t0\n";

static const char net_netstat[] =
	"TcpExt: SyncookiesSent SyncookiesRecv SyncookiesFailed EmbryonicRsts PruneCalled RcvPruned OfoPruned OutOfWindowIcmps LockDroppedIcmps ArpFilter TW TWRecycled TWKilled PAWSActive PAWSEstab BeyondWindow TSEcrRejected PAWSOldAck PAWSTimewait DelayedACKs DelayedACKLocked DelayedACKLost ListenOverflows ListenDrops TCPHPHits TCPPureAcks TCPHPAcks TCPRenoRecovery TCPSackRecovery TCPSACKReneging TCPSACKReorder TCPRenoReorder TCPTSReorder TCPFullUndo TCPPartialUndo TCPDSACKUndo TCPLossUndo TCPLostRetransmit TCPRenoFailures TCPSackFailures TCPLossFailures TCPFastRetrans TCPSlowStartRetrans TCPTimeouts TCPLossProbes TCPLossProbeRecovery TCPRenoRecoveryFail TCPSackRecoveryFail TCPRcvCollapsed TCPBacklogCoalesce TCPDSACKOldSent TCPDSACKOfoSent TCPDSACKRecv TCPDSACKOfoRecv TCPAbortOnData TCPAbortOnClose TCPAbortOnMemory TCPAbortOnTimeout TCPAbortOnLinger TCPAbortFailed TCPMemoryPressures TCPMemoryPressuresChrono TCPSACKDiscard TCPDSACKIgnoredOld TCPDSACKIgnoredNoUndo TCPSpuriousRTOs TCPMD5NotFound TCPMD5Unexpected TCPMD5Failure TCPSackShifted TCPSackMerged TCPSackShiftFallback TCPBacklogDrop PFMemallocDrop TCPMinTTLDrop TCPDeferAcceptDrop IPReversePathFilter TCPTimeWaitOverflow TCPReqQFullDoCookies TCPReqQFullDrop TCPRetransFail TCPRcvCoalesce TCPOFOQueue TCPOFODrop TCPOFOMerge TCPChallengeACK TCPSYNChallenge TCPFastOpenActive TCPFastOpenActiveFail TCPFastOpenPassive TCPFastOpenPassiveFail TCPFastOpenListenOverflow TCPFastOpenCookieReqd TCPFastOpenBlackhole TCPSpuriousRtxHostQueues BusyPollRxPackets TCPAutoCorking TCPFromZeroWindowAdv TCPToZeroWindowAdv TCPWantZeroWindowAdv TCPSynRetrans TCPOrigDataSent TCPHystartTrainDetect TCPHystartTrainCwnd TCPHystartDelayDetect TCPHystartDelayCwnd TCPACKSkippedSynRecv TCPACKSkippedPAWS TCPACKSkippedSeq TCPACKSkippedFinWait2 TCPACKSkippedTimeWait TCPACKSkippedChallenge TCPWinProbe TCPKeepAlive TCPMTUPFail TCPMTUPSuccess TCPDelivered TCPDeliveredCE TCPAckCompressed TCPZeroWindowDrop TCPRcvQDrop TCPWqueueTooBig TCPFastOpenPassiveAltKey TcpTimeoutRehash TcpDuplicateDataRehash TCPDSACKRecvSegs TCPDSACKIgnoredDubious TCPMigrateReqSuccess TCPMigrateReqFailure TCPPLBRehash TCPAORequired TCPAOBad TCPAOKeyNotFound TCPAOGood TCPAODroppedIcmps\n"
	"TcpExt: 0 0 0 0 0 0 0 0 0 0 56 0 0 0 0 0 0 0 0 3 0 0 0 0 7 151 22 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2 0 0 0 0 0 14 0 0 0 0 1 5 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 474 0 0 0 0 0 0 0 0 0 0 0 0 2 0 0 42 42 4 0 194 0 0 0 0 0 0 0 0 0 0 0 0 0 0 254 0 0 0 0 0 0 2 0 0 0 0 0 0 0 0 0 0 0\n"
	"IpExt: InNoRoutes InTruncatedPkts InMcastPkts OutMcastPkts InBcastPkts OutBcastPkts InOctets OutOctets InMcastOctets OutMcastOctets InBcastOctets OutBcastOctets InCsumErrors InNoECTPkts InECT1Pkts InECT0Pkts InCEPkts ReasmOverlaps\n"
	"IpExt: 0 0 0 0 0 0 25024478 229487 0 0 0 0 0 1055 0 0 0 0\n"
	"MPTcpExt: MPCapableSYNRX MPCapableSYNTX MPCapableSYNACKRX MPCapableACKRX MPCapableFallbackACK MPCapableFallbackSYNACK MPCapableSYNTXDrop MPCapableSYNTXDisabled MPCapableEndpAttempt MPFallbackTokenInit MPTCPRetrans MPJoinNoTokenFound MPJoinSynRx MPJoinSynBackupRx MPJoinSynAckRx MPJoinSynAckBackupRx MPJoinSynAckHMacFailure MPJoinAckRx MPJoinAckHMacFailure MPJoinRejected MPJoinSynTx MPJoinSynTxCreatSkErr MPJoinSynTxBindErr MPJoinSynTxConnectErr DSSNotMatching DSSCorruptionFallback DSSCorruptionReset InfiniteMapTx InfiniteMapRx DSSNoMatchTCP DataCsumErr OFOQueueTail OFOQueue OFOMerge NoDSSInWindow DuplicateData AddAddr AddAddrTx AddAddrTxDrop EchoAdd EchoAddTx EchoAddTxDrop PortAdd AddAddrDrop MPJoinPortSynRx MPJoinPortSynAckRx MPJoinPortAckRx MismatchPortSynRx MismatchPortAckRx RmAddr RmAddrDrop RmAddrTx RmAddrTxDrop RmSubflow MPPrioTx MPPrioRx MPFailTx MPFailRx MPFastcloseTx MPFastcloseRx MPRstTx MPRstRx SubflowStale SubflowRecover SndWndShared RcvWndShared RcvWndConflictUpdate RcvWndConflict MPCurrEstab Blackhole MPCapableDataFallback MD5SigFallback DssFallback SimultConnectFallback FallbackFailed WinProbe\n"
	"MPTcpExt: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

static const char net_sockstat[] =
	"sockets: used 40\n"
	"TCP: inuse 7 orphan 0 tw 5 alloc 12 mem 248\n"
	"UDP: inuse 2 mem 0\n"
	"UDPLITE: inuse 0\n"
	"RAW: inuse 0\n"
	"FRAG: inuse 0 memory 0\n";

static const char net_sockstat6[] =
	"TCP6: inuse 2\n"
	"UDP6: inuse 0\n"
	"UDPLITE6: inuse 0\n"
	"RAW6: inuse 0\n"
	"FRAG6: inuse 0 memory 0\n";

static const char net_softnet_stat[] =
	"000000eb 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
	"00000366 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000001 00000000 00000000\n";

static const char net_arp[] =
	"IP address       HW type     Flags       HW address            Mask     Device\n"
	"192.0.2.1        0x1         0x2         02:fc:00:00:00:05     *        eth0\n";

static const char net_route[] =
	"Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT                                                       \n"
	"eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0                                                                               \n"
	"eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0                                                                               \n";

static const char net_tcp[] =
	"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode                                                     \n"
	"   0: 0100007F:DF99 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1049768 1 000000003a568ab8 100 0 0 10 0                   \n"
	"   1: 0100007F:DF1F 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 657053 1 000000008852c158 100 0 0 10 0                    \n"
	"   2: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 624 1 0000000020307e96 100 0 0 10 0                       \n"
	"   3: 0100007F:9312 0100007F:EB93 06 00000000:00000000 03:00000630 00000000     0        0 0 3 000000003e0e7d85                                      \n"
	"   4: 0100007F:A016 0100007F:DFCD 06 00000000:00000000 03:00001572 00000000     0        0 0 3 00000000d04726e8                                      \n"
	"   5: 0100007F:DF99 0100007F:CD10 08 00000000:00000001 00:00000000 00000000     0        0 1049775 1 0000000040cd170d 20 4 0 10 -1                   \n"
	"   6: 0100007F:DFCD 0100007F:A012 06 00000000:00000000 03:00001572 00000000     0        0 0 3 00000000ba7995f3                                      \n"
	"   7: 0100007F:BD78 0100007F:C3AB 01 00000000:00000000 00:00000000 00000000     0        0 1049772 2 000000004bebc8fd 20 0 0 10 -1                   \n"
	"   8: 0100007F:CD0C 0100007F:DF99 01 00000000:00000000 00:00000000 00000000     0        0 1049770 2 00000000ce04f67e 20 0 0 10 -1                   \n"
	"   9: 0100007F:CD10 0100007F:DF99 05 00000000:00000000 03:0000174A 00000000     0        0 0 3 00000000c309216b                                      \n"
	"  10: 0100007F:DF99 0100007F:CD0C 01 00000000:00000000 00:00000000 00000000     0        0 1049771 1 0000000049899d2d 20 0 0 10 -1                   \n";

static const char net_tcp6[] =
	"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	"   0: 00000000000000000000000000000000:C3AB 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1049769 1 000000000dbafe14 100 0 0 10 0\n"
	"   1: 0000000000000000FFFF00000100007F:C3AB 0000000000000000FFFF00000100007F:BD78 01 00000000:00000000 00:00000000 00000000     0        0 1049773 1 00000000faf9a525 20 0 0 10 -1\n"
	"   2: 0000000000000000FFFF00000100007F:9ADD 0000000000000000FFFF00000100007F:E470 06 00000000:00000000 03:00001571 00000000     0        0 0 3 00000000fb6e3603\n";

static const char net_udp[] =
	"   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops            \n"
	" 5567: 0100007F:8B28 00000000:0000 07 00000000:00000340 00:00000000 00000000     0        0 1049776 2 000000008fb988bc 0       \n"
	"12744: 0100007F:A731 0100007F:8B28 01 00000000:00000000 00:00000000 00000000     0        0 1049777 2 0000000019758273 0       \n";

static const char net_udp6[] =
	"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n";

static const char net_unix[] =
	"Num       RefCount Protocol Flags    Type St Inode Path\n"
	"00000000111bc65a: 00000003 00000000 00000000 0001 03  1073\n"
	"0000000064477551: 00000003 00000000 00000000 0001 03 1012029\n"
	"00000000ff903ab5: 00000003 00000000 00000000 0001 03 657052\n"
	"00000000f98eec95: 00000003 00000000 00000000 0001 03 1027144\n"
	"0000000052ea32cc: 00000002 00000000 00000000 0002 01 1049784\n"
	"00000000bcbf079c: 00000003 00000000 00000000 0001 03 1049782\n"
	"00000000eced05ac: 00000003 00000000 00000000 0001 03 657051\n"
	"00000000dcadc9ff: 00000003 00000000 00000000 0001 03 1012028\n"
	"000000001c6d5312: 00000003 00000000 00000000 0001 03 1027145\n"
	"000000005b4bd13c: 00000002 00000000 00010000 0001 01 1049779 /tmp/uprocfs-hc.Rc6F22/sock with space\n"
	"and newline\n"
	"000000004222b675: 00000002 00000000 00010000 0005 01 1049780 /tmp/uprocfs-hc.Rc6F22/seq@packet\n"
	"000000004e23b9ce: 00000003 00000000 00000000 0001 03  1072\n"
	"0000000060ccdd92: 00000003 00000000 00000000 0001 03 1049783\n"
	"000000009b79ba0d: 00000002 00000000 00000000 0002 01 1049781 @uprocfs-hc@abstract@\n";

static const char net_if_inet6[] =
	"fe8000000000000000fc00fffe000001 04 40 20 80     eth0\n"
	"00000000000000000000000000000001 01 80 10 80       lo\n"
	"fd000000000000000000000000000002 04 40 00 82     eth0\n";

static const char netns_dev[] =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
	"    lo:     172       3    0    0    0     0          0         0      172       3    0    0    0     0       0          0\n";

static const char netns_tcp[] =
	"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode                                                     \n"
	"   0: 0100007F:EAF1 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1049808 1 000000005e6a7f4b 100 0 0 10 0                   \n"
	"   1: 0100007F:EAF1 0100007F:82CE 01 00000000:00000000 00:00000000 00000000     0        0 1049810 1 00000000054cd4d0 20 0 0 10 -1                   \n"
	"   2: 0100007F:82CE 0100007F:EAF1 01 00000000:00000000 00:00000000 00000000     0        0 1049809 2 00000000ecf944d1 20 0 0 10 -1                   \n";

static const char netns_route[] =
	"Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT                                                       \n";

static const char netns_if_inet6[] =
	"00000000000000000000000000000001 01 80 10 80       lo\n";

static const char netns_sockstat[] =
	"sockets: used 4\n"
	"TCP: inuse 3 orphan 0 tw 0 alloc 12 mem 248\n"
	"UDP: inuse 0 mem 0\n"
	"UDPLITE: inuse 0\n"
	"RAW: inuse 0\n"
	"FRAG: inuse 0 memory 0\n";

static const char netns_arp[] =
	"IP address       HW type     Flags       HW address            Mask     Device\n";

