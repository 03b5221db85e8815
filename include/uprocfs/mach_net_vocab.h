/* SPDX-License-Identifier: MIT */
/*
 * mach_net_vocab.h - the fixed vocabularies of the network files: the SNMP
 * MIB counters of /proc/net/snmp, /proc/net/netstat and /proc/net/snmp6,
 * and the interface statistics of /proc/net/dev (and /sys/class/net).
 *
 * X-macro lists as in mach_vocab.h: the kernel's names are facts of its
 * format, kept once here and expanded into enums (mach_net.h) and name
 * tables (src/machine/net_vocab.c).  Order is Linux 6.18's print order
 * (net/ipv4/proc.c snmp4_*_list, net/ipv6/proc.c snmp6_*_list,
 * net/mptcp/mib.c mptcp_snmp_list); the key lists grow almost every release,
 * so they are the 6.18 lists, not derived.
 */
#ifndef UPROCFS_MACH_NET_VOCAB_H
#define UPROCFS_MACH_NET_VOCAB_H

/* X(ident, "Name"): the Ip: counters after Forwarding and DefaultTTL (ipstats, %llu). */
#define MACH_NET_IP_FIELDS(X) \
	X(IP_INRECEIVES, "InReceives") X(IP_INHDRERRORS, "InHdrErrors") \
	X(IP_INADDRERRORS, "InAddrErrors") X(IP_FORWDATAGRAMS, "ForwDatagrams") \
	X(IP_INUNKNOWNPROTOS, "InUnknownProtos") X(IP_INDISCARDS, "InDiscards") \
	X(IP_INDELIVERS, "InDelivers") X(IP_OUTREQUESTS, "OutRequests") \
	X(IP_OUTDISCARDS, "OutDiscards") X(IP_OUTNOROUTES, "OutNoRoutes") \
	X(IP_REASMTIMEOUT, "ReasmTimeout") X(IP_REASMREQDS, "ReasmReqds") X(IP_REASMOKS, "ReasmOKs") \
	X(IP_REASMFAILS, "ReasmFails") X(IP_FRAGOKS, "FragOKs") X(IP_FRAGFAILS, "FragFails") \
	X(IP_FRAGCREATES, "FragCreates") X(IP_OUTTRANSMITS, "OutTransmits")

/*
 * The Icmp: counters of their own (icmp_statistics).  The line interleaves
 * them with per-type counters of the IcmpMsg array: InMsgs InErrors
 * InCsumErrors In<types> OutMsgs OutErrors OutRateLimitGlobal
 * OutRateLimitHost Out<types>; MACH_NET_ICMP_IN_LAST marks the split.
 */
#define MACH_NET_ICMP_FIELDS(X) \
	X(ICMP_INMSGS, "InMsgs") X(ICMP_INERRORS, "InErrors") X(ICMP_INCSUMERRORS, "InCsumErrors") \
	X(ICMP_OUTMSGS, "OutMsgs") X(ICMP_OUTERRORS, "OutErrors") \
	X(ICMP_OUTRATELIMITGLOBAL, "OutRateLimitGlobal") X(ICMP_OUTRATELIMITHOST, "OutRateLimitHost")
#define MACH_NET_ICMP_IN_LAST MACH_NET_ICMP_INCSUMERRORS

/* X("Name", type): icmpmibmap, the ICMP types the Icmp: line names, in its order. */
#define MACH_NET_ICMP_TYPES(X) \
	X("DestUnreachs", 3) X("TimeExcds", 11) X("ParmProbs", 12) X("SrcQuenchs", 4) \
	X("Redirects", 5) X("Echos", 8) X("EchoReps", 0) X("Timestamps", 13) \
	X("TimestampReps", 14) X("AddrMasks", 17) X("AddrMaskReps", 18)

/* Tcp: (MaxConn prints signed: the kernel stores -1). */
#define MACH_NET_TCP_FIELDS(X) \
	X(TCP_RTOALGORITHM, "RtoAlgorithm") X(TCP_RTOMIN, "RtoMin") X(TCP_RTOMAX, "RtoMax") \
	X(TCP_MAXCONN, "MaxConn") X(TCP_ACTIVEOPENS, "ActiveOpens") \
	X(TCP_PASSIVEOPENS, "PassiveOpens") X(TCP_ATTEMPTFAILS, "AttemptFails") \
	X(TCP_ESTABRESETS, "EstabResets") X(TCP_CURRESTAB, "CurrEstab") X(TCP_INSEGS, "InSegs") \
	X(TCP_OUTSEGS, "OutSegs") X(TCP_RETRANSSEGS, "RetransSegs") X(TCP_INERRS, "InErrs") \
	X(TCP_OUTRSTS, "OutRsts") X(TCP_INCSUMERRORS, "InCsumErrors")

/* Udp: and UdpLite: (the same MIB). */
#define MACH_NET_UDP_FIELDS(X) \
	X(UDP_INDATAGRAMS, "InDatagrams") X(UDP_NOPORTS, "NoPorts") X(UDP_INERRORS, "InErrors") \
	X(UDP_OUTDATAGRAMS, "OutDatagrams") X(UDP_RCVBUFERRORS, "RcvbufErrors") \
	X(UDP_SNDBUFERRORS, "SndbufErrors") X(UDP_INCSUMERRORS, "InCsumErrors") \
	X(UDP_IGNOREDMULTI, "IgnoredMulti") X(UDP_MEMERRORS, "MemErrors")

/* TcpExt: of /proc/net/netstat (snmp4_net_list). */
#define MACH_NET_TCPEXT_FIELDS(X) \
	X(TX_SYNCOOKIESSENT, "SyncookiesSent") X(TX_SYNCOOKIESRECV, "SyncookiesRecv") \
	X(TX_SYNCOOKIESFAILED, "SyncookiesFailed") X(TX_EMBRYONICRSTS, "EmbryonicRsts") \
	X(TX_PRUNECALLED, "PruneCalled") X(TX_RCVPRUNED, "RcvPruned") X(TX_OFOPRUNED, "OfoPruned") \
	X(TX_OUTOFWINDOWICMPS, "OutOfWindowIcmps") X(TX_LOCKDROPPEDICMPS, "LockDroppedIcmps") \
	X(TX_ARPFILTER, "ArpFilter") X(TX_TW, "TW") X(TX_TWRECYCLED, "TWRecycled") \
	X(TX_TWKILLED, "TWKilled") X(TX_PAWSACTIVE, "PAWSActive") X(TX_PAWSESTAB, "PAWSEstab") \
	X(TX_BEYONDWINDOW, "BeyondWindow") X(TX_TSECRREJECTED, "TSEcrRejected") \
	X(TX_PAWSOLDACK, "PAWSOldAck") X(TX_PAWSTIMEWAIT, "PAWSTimewait") \
	X(TX_DELAYEDACKS, "DelayedACKs") X(TX_DELAYEDACKLOCKED, "DelayedACKLocked") \
	X(TX_DELAYEDACKLOST, "DelayedACKLost") X(TX_LISTENOVERFLOWS, "ListenOverflows") \
	X(TX_LISTENDROPS, "ListenDrops") X(TX_TCPHPHITS, "TCPHPHits") X(TX_TCPPUREACKS, "TCPPureAcks") \
	X(TX_TCPHPACKS, "TCPHPAcks") X(TX_TCPRENORECOVERY, "TCPRenoRecovery") \
	X(TX_TCPSACKRECOVERY, "TCPSackRecovery") X(TX_TCPSACKRENEGING, "TCPSACKReneging") \
	X(TX_TCPSACKREORDER, "TCPSACKReorder") X(TX_TCPRENOREORDER, "TCPRenoReorder") \
	X(TX_TCPTSREORDER, "TCPTSReorder") X(TX_TCPFULLUNDO, "TCPFullUndo") \
	X(TX_TCPPARTIALUNDO, "TCPPartialUndo") X(TX_TCPDSACKUNDO, "TCPDSACKUndo") \
	X(TX_TCPLOSSUNDO, "TCPLossUndo") X(TX_TCPLOSTRETRANSMIT, "TCPLostRetransmit") \
	X(TX_TCPRENOFAILURES, "TCPRenoFailures") X(TX_TCPSACKFAILURES, "TCPSackFailures") \
	X(TX_TCPLOSSFAILURES, "TCPLossFailures") X(TX_TCPFASTRETRANS, "TCPFastRetrans") \
	X(TX_TCPSLOWSTARTRETRANS, "TCPSlowStartRetrans") X(TX_TCPTIMEOUTS, "TCPTimeouts") \
	X(TX_TCPLOSSPROBES, "TCPLossProbes") X(TX_TCPLOSSPROBERECOVERY, "TCPLossProbeRecovery") \
	X(TX_TCPRENORECOVERYFAIL, "TCPRenoRecoveryFail") \
	X(TX_TCPSACKRECOVERYFAIL, "TCPSackRecoveryFail") X(TX_TCPRCVCOLLAPSED, "TCPRcvCollapsed") \
	X(TX_TCPBACKLOGCOALESCE, "TCPBacklogCoalesce") X(TX_TCPDSACKOLDSENT, "TCPDSACKOldSent") \
	X(TX_TCPDSACKOFOSENT, "TCPDSACKOfoSent") X(TX_TCPDSACKRECV, "TCPDSACKRecv") \
	X(TX_TCPDSACKOFORECV, "TCPDSACKOfoRecv") X(TX_TCPABORTONDATA, "TCPAbortOnData") \
	X(TX_TCPABORTONCLOSE, "TCPAbortOnClose") X(TX_TCPABORTONMEMORY, "TCPAbortOnMemory") \
	X(TX_TCPABORTONTIMEOUT, "TCPAbortOnTimeout") X(TX_TCPABORTONLINGER, "TCPAbortOnLinger") \
	X(TX_TCPABORTFAILED, "TCPAbortFailed") X(TX_TCPMEMORYPRESSURES, "TCPMemoryPressures") \
	X(TX_TCPMEMORYPRESSURESCHRONO, "TCPMemoryPressuresChrono") \
	X(TX_TCPSACKDISCARD, "TCPSACKDiscard") X(TX_TCPDSACKIGNOREDOLD, "TCPDSACKIgnoredOld") \
	X(TX_TCPDSACKIGNOREDNOUNDO, "TCPDSACKIgnoredNoUndo") X(TX_TCPSPURIOUSRTOS, "TCPSpuriousRTOs") \
	X(TX_TCPMD5NOTFOUND, "TCPMD5NotFound") X(TX_TCPMD5UNEXPECTED, "TCPMD5Unexpected") \
	X(TX_TCPMD5FAILURE, "TCPMD5Failure") X(TX_TCPSACKSHIFTED, "TCPSackShifted") \
	X(TX_TCPSACKMERGED, "TCPSackMerged") X(TX_TCPSACKSHIFTFALLBACK, "TCPSackShiftFallback") \
	X(TX_TCPBACKLOGDROP, "TCPBacklogDrop") X(TX_PFMEMALLOCDROP, "PFMemallocDrop") \
	X(TX_TCPMINTTLDROP, "TCPMinTTLDrop") X(TX_TCPDEFERACCEPTDROP, "TCPDeferAcceptDrop") \
	X(TX_IPREVERSEPATHFILTER, "IPReversePathFilter") \
	X(TX_TCPTIMEWAITOVERFLOW, "TCPTimeWaitOverflow") \
	X(TX_TCPREQQFULLDOCOOKIES, "TCPReqQFullDoCookies") X(TX_TCPREQQFULLDROP, "TCPReqQFullDrop") \
	X(TX_TCPRETRANSFAIL, "TCPRetransFail") X(TX_TCPRCVCOALESCE, "TCPRcvCoalesce") \
	X(TX_TCPOFOQUEUE, "TCPOFOQueue") X(TX_TCPOFODROP, "TCPOFODrop") X(TX_TCPOFOMERGE, "TCPOFOMerge") \
	X(TX_TCPCHALLENGEACK, "TCPChallengeACK") X(TX_TCPSYNCHALLENGE, "TCPSYNChallenge") \
	X(TX_TCPFASTOPENACTIVE, "TCPFastOpenActive") \
	X(TX_TCPFASTOPENACTIVEFAIL, "TCPFastOpenActiveFail") \
	X(TX_TCPFASTOPENPASSIVE, "TCPFastOpenPassive") \
	X(TX_TCPFASTOPENPASSIVEFAIL, "TCPFastOpenPassiveFail") \
	X(TX_TCPFASTOPENLISTENOVERFLOW, "TCPFastOpenListenOverflow") \
	X(TX_TCPFASTOPENCOOKIEREQD, "TCPFastOpenCookieReqd") \
	X(TX_TCPFASTOPENBLACKHOLE, "TCPFastOpenBlackhole") \
	X(TX_TCPSPURIOUSRTXHOSTQUEUES, "TCPSpuriousRtxHostQueues") \
	X(TX_BUSYPOLLRXPACKETS, "BusyPollRxPackets") X(TX_TCPAUTOCORKING, "TCPAutoCorking") \
	X(TX_TCPFROMZEROWINDOWADV, "TCPFromZeroWindowAdv") \
	X(TX_TCPTOZEROWINDOWADV, "TCPToZeroWindowAdv") \
	X(TX_TCPWANTZEROWINDOWADV, "TCPWantZeroWindowAdv") X(TX_TCPSYNRETRANS, "TCPSynRetrans") \
	X(TX_TCPORIGDATASENT, "TCPOrigDataSent") X(TX_TCPHYSTARTTRAINDETECT, "TCPHystartTrainDetect") \
	X(TX_TCPHYSTARTTRAINCWND, "TCPHystartTrainCwnd") \
	X(TX_TCPHYSTARTDELAYDETECT, "TCPHystartDelayDetect") \
	X(TX_TCPHYSTARTDELAYCWND, "TCPHystartDelayCwnd") \
	X(TX_TCPACKSKIPPEDSYNRECV, "TCPACKSkippedSynRecv") \
	X(TX_TCPACKSKIPPEDPAWS, "TCPACKSkippedPAWS") X(TX_TCPACKSKIPPEDSEQ, "TCPACKSkippedSeq") \
	X(TX_TCPACKSKIPPEDFINWAIT2, "TCPACKSkippedFinWait2") \
	X(TX_TCPACKSKIPPEDTIMEWAIT, "TCPACKSkippedTimeWait") \
	X(TX_TCPACKSKIPPEDCHALLENGE, "TCPACKSkippedChallenge") X(TX_TCPWINPROBE, "TCPWinProbe") \
	X(TX_TCPKEEPALIVE, "TCPKeepAlive") X(TX_TCPMTUPFAIL, "TCPMTUPFail") \
	X(TX_TCPMTUPSUCCESS, "TCPMTUPSuccess") X(TX_TCPDELIVERED, "TCPDelivered") \
	X(TX_TCPDELIVEREDCE, "TCPDeliveredCE") X(TX_TCPACKCOMPRESSED, "TCPAckCompressed") \
	X(TX_TCPZEROWINDOWDROP, "TCPZeroWindowDrop") X(TX_TCPRCVQDROP, "TCPRcvQDrop") \
	X(TX_TCPWQUEUETOOBIG, "TCPWqueueTooBig") \
	X(TX_TCPFASTOPENPASSIVEALTKEY, "TCPFastOpenPassiveAltKey") \
	X(TX_TCPTIMEOUTREHASH, "TcpTimeoutRehash") X(TX_TCPDUPLICATEDATAREHASH, "TcpDuplicateDataRehash") \
	X(TX_TCPDSACKRECVSEGS, "TCPDSACKRecvSegs") X(TX_TCPDSACKIGNOREDDUBIOUS, "TCPDSACKIgnoredDubious") \
	X(TX_TCPMIGRATEREQSUCCESS, "TCPMigrateReqSuccess") \
	X(TX_TCPMIGRATEREQFAILURE, "TCPMigrateReqFailure") X(TX_TCPPLBREHASH, "TCPPLBRehash") \
	X(TX_TCPAOREQUIRED, "TCPAORequired") X(TX_TCPAOBAD, "TCPAOBad") \
	X(TX_TCPAOKEYNOTFOUND, "TCPAOKeyNotFound") X(TX_TCPAOGOOD, "TCPAOGood") \
	X(TX_TCPAODROPPEDICMPS, "TCPAODroppedIcmps")

/* IpExt: (ipextstats, %llu). */
#define MACH_NET_IPEXT_FIELDS(X) \
	X(IX_INNOROUTES, "InNoRoutes") X(IX_INTRUNCATEDPKTS, "InTruncatedPkts") \
	X(IX_INMCASTPKTS, "InMcastPkts") X(IX_OUTMCASTPKTS, "OutMcastPkts") \
	X(IX_INBCASTPKTS, "InBcastPkts") X(IX_OUTBCASTPKTS, "OutBcastPkts") \
	X(IX_INOCTETS, "InOctets") X(IX_OUTOCTETS, "OutOctets") X(IX_INMCASTOCTETS, "InMcastOctets") \
	X(IX_OUTMCASTOCTETS, "OutMcastOctets") X(IX_INBCASTOCTETS, "InBcastOctets") \
	X(IX_OUTBCASTOCTETS, "OutBcastOctets") X(IX_INCSUMERRORS, "InCsumErrors") \
	X(IX_INNOECTPKTS, "InNoECTPkts") X(IX_INECT1PKTS, "InECT1Pkts") X(IX_INECT0PKTS, "InECT0Pkts") \
	X(IX_INCEPKTS, "InCEPkts") X(IX_REASMOVERLAPS, "ReasmOverlaps")

/* MPTcpExt: (CONFIG_MPTCP). */
#define MACH_NET_MPTCP_FIELDS(X) \
	X(MP_MPCAPABLESYNRX, "MPCapableSYNRX") X(MP_MPCAPABLESYNTX, "MPCapableSYNTX") \
	X(MP_MPCAPABLESYNACKRX, "MPCapableSYNACKRX") X(MP_MPCAPABLEACKRX, "MPCapableACKRX") \
	X(MP_MPCAPABLEFALLBACKACK, "MPCapableFallbackACK") \
	X(MP_MPCAPABLEFALLBACKSYNACK, "MPCapableFallbackSYNACK") \
	X(MP_MPCAPABLESYNTXDROP, "MPCapableSYNTXDrop") \
	X(MP_MPCAPABLESYNTXDISABLED, "MPCapableSYNTXDisabled") \
	X(MP_MPCAPABLEENDPATTEMPT, "MPCapableEndpAttempt") \
	X(MP_MPFALLBACKTOKENINIT, "MPFallbackTokenInit") X(MP_MPTCPRETRANS, "MPTCPRetrans") \
	X(MP_MPJOINNOTOKENFOUND, "MPJoinNoTokenFound") X(MP_MPJOINSYNRX, "MPJoinSynRx") \
	X(MP_MPJOINSYNBACKUPRX, "MPJoinSynBackupRx") X(MP_MPJOINSYNACKRX, "MPJoinSynAckRx") \
	X(MP_MPJOINSYNACKBACKUPRX, "MPJoinSynAckBackupRx") \
	X(MP_MPJOINSYNACKHMACFAILURE, "MPJoinSynAckHMacFailure") X(MP_MPJOINACKRX, "MPJoinAckRx") \
	X(MP_MPJOINACKHMACFAILURE, "MPJoinAckHMacFailure") X(MP_MPJOINREJECTED, "MPJoinRejected") \
	X(MP_MPJOINSYNTX, "MPJoinSynTx") X(MP_MPJOINSYNTXCREATSKERR, "MPJoinSynTxCreatSkErr") \
	X(MP_MPJOINSYNTXBINDERR, "MPJoinSynTxBindErr") \
	X(MP_MPJOINSYNTXCONNECTERR, "MPJoinSynTxConnectErr") X(MP_DSSNOTMATCHING, "DSSNotMatching") \
	X(MP_DSSCORRUPTIONFALLBACK, "DSSCorruptionFallback") \
	X(MP_DSSCORRUPTIONRESET, "DSSCorruptionReset") X(MP_INFINITEMAPTX, "InfiniteMapTx") \
	X(MP_INFINITEMAPRX, "InfiniteMapRx") X(MP_DSSNOMATCHTCP, "DSSNoMatchTCP") \
	X(MP_DATACSUMERR, "DataCsumErr") X(MP_OFOQUEUETAIL, "OFOQueueTail") X(MP_OFOQUEUE, "OFOQueue") \
	X(MP_OFOMERGE, "OFOMerge") X(MP_NODSSINWINDOW, "NoDSSInWindow") \
	X(MP_DUPLICATEDATA, "DuplicateData") X(MP_ADDADDR, "AddAddr") X(MP_ADDADDRTX, "AddAddrTx") \
	X(MP_ADDADDRTXDROP, "AddAddrTxDrop") X(MP_ECHOADD, "EchoAdd") X(MP_ECHOADDTX, "EchoAddTx") \
	X(MP_ECHOADDTXDROP, "EchoAddTxDrop") X(MP_PORTADD, "PortAdd") X(MP_ADDADDRDROP, "AddAddrDrop") \
	X(MP_MPJOINPORTSYNRX, "MPJoinPortSynRx") X(MP_MPJOINPORTSYNACKRX, "MPJoinPortSynAckRx") \
	X(MP_MPJOINPORTACKRX, "MPJoinPortAckRx") X(MP_MISMATCHPORTSYNRX, "MismatchPortSynRx") \
	X(MP_MISMATCHPORTACKRX, "MismatchPortAckRx") X(MP_RMADDR, "RmAddr") \
	X(MP_RMADDRDROP, "RmAddrDrop") X(MP_RMADDRTX, "RmAddrTx") X(MP_RMADDRTXDROP, "RmAddrTxDrop") \
	X(MP_RMSUBFLOW, "RmSubflow") X(MP_MPPRIOTX, "MPPrioTx") X(MP_MPPRIORX, "MPPrioRx") \
	X(MP_MPFAILTX, "MPFailTx") X(MP_MPFAILRX, "MPFailRx") X(MP_MPFASTCLOSETX, "MPFastcloseTx") \
	X(MP_MPFASTCLOSERX, "MPFastcloseRx") X(MP_MPRSTTX, "MPRstTx") X(MP_MPRSTRX, "MPRstRx") \
	X(MP_SUBFLOWSTALE, "SubflowStale") X(MP_SUBFLOWRECOVER, "SubflowRecover") \
	X(MP_SNDWNDSHARED, "SndWndShared") X(MP_RCVWNDSHARED, "RcvWndShared") \
	X(MP_RCVWNDCONFLICTUPDATE, "RcvWndConflictUpdate") X(MP_RCVWNDCONFLICT, "RcvWndConflict") \
	X(MP_MPCURRESTAB, "MPCurrEstab") X(MP_BLACKHOLE, "Blackhole") \
	X(MP_MPCAPABLEDATAFALLBACK, "MPCapableDataFallback") X(MP_MD5SIGFALLBACK, "MD5SigFallback") \
	X(MP_DSSFALLBACK, "DssFallback") X(MP_SIMULTCONNECTFALLBACK, "SimultConnectFallback") \
	X(MP_FALLBACKFAILED, "FallbackFailed") X(MP_WINPROBE, "WinProbe")

/* /proc/net/snmp6: the Ip6 counters (snmp6_ipstats_list, %llu). */
#define MACH_NET_IP6_FIELDS(X) \
	X(IP6_INRECEIVES, "Ip6InReceives") X(IP6_INHDRERRORS, "Ip6InHdrErrors") \
	X(IP6_INTOOBIGERRORS, "Ip6InTooBigErrors") X(IP6_INNOROUTES, "Ip6InNoRoutes") \
	X(IP6_INADDRERRORS, "Ip6InAddrErrors") X(IP6_INUNKNOWNPROTOS, "Ip6InUnknownProtos") \
	X(IP6_INTRUNCATEDPKTS, "Ip6InTruncatedPkts") X(IP6_INDISCARDS, "Ip6InDiscards") \
	X(IP6_INDELIVERS, "Ip6InDelivers") X(IP6_OUTFORWDATAGRAMS, "Ip6OutForwDatagrams") \
	X(IP6_OUTREQUESTS, "Ip6OutRequests") X(IP6_OUTDISCARDS, "Ip6OutDiscards") \
	X(IP6_OUTNOROUTES, "Ip6OutNoRoutes") X(IP6_REASMTIMEOUT, "Ip6ReasmTimeout") \
	X(IP6_REASMREQDS, "Ip6ReasmReqds") X(IP6_REASMOKS, "Ip6ReasmOKs") \
	X(IP6_REASMFAILS, "Ip6ReasmFails") X(IP6_FRAGOKS, "Ip6FragOKs") X(IP6_FRAGFAILS, "Ip6FragFails") \
	X(IP6_FRAGCREATES, "Ip6FragCreates") X(IP6_INMCASTPKTS, "Ip6InMcastPkts") \
	X(IP6_OUTMCASTPKTS, "Ip6OutMcastPkts") X(IP6_INOCTETS, "Ip6InOctets") \
	X(IP6_OUTOCTETS, "Ip6OutOctets") X(IP6_INMCASTOCTETS, "Ip6InMcastOctets") \
	X(IP6_OUTMCASTOCTETS, "Ip6OutMcastOctets") X(IP6_INBCASTOCTETS, "Ip6InBcastOctets") \
	X(IP6_OUTBCASTOCTETS, "Ip6OutBcastOctets") X(IP6_INNOECTPKTS, "Ip6InNoECTPkts") \
	X(IP6_INECT1PKTS, "Ip6InECT1Pkts") X(IP6_INECT0PKTS, "Ip6InECT0Pkts") \
	X(IP6_INCEPKTS, "Ip6InCEPkts") X(IP6_OUTTRANSMITS, "Ip6OutTransmits")

/* snmp6: the Icmp6 counters of their own (snmp6_icmp6_list). */
#define MACH_NET_ICMP6_FIELDS(X) \
	X(ICMP6_INMSGS, "Icmp6InMsgs") X(ICMP6_INERRORS, "Icmp6InErrors") \
	X(ICMP6_OUTMSGS, "Icmp6OutMsgs") X(ICMP6_OUTERRORS, "Icmp6OutErrors") \
	X(ICMP6_INCSUMERRORS, "Icmp6InCsumErrors") X(ICMP6_OUTRATELIMITHOST, "Icmp6OutRateLimitHost")

/*
 * X("Name", type): icmp6type2name, the ICMPv6 types snmp6 prints by name
 * (Icmp6In<Name>, then Icmp6Out<Name>), in ascending type order.  The
 * values are the per-type counters that Icmp6InType<N> repeats.
 */
#define MACH_NET_ICMP6_TYPES(X) \
	X("DestUnreachs", 1) X("PktTooBigs", 2) X("TimeExcds", 3) X("ParmProblems", 4) \
	X("Echos", 128) X("EchoReplies", 129) X("GroupMembQueries", 130) \
	X("GroupMembResponses", 131) X("GroupMembReductions", 132) X("RouterSolicits", 133) \
	X("RouterAdvertisements", 134) X("NeighborSolicits", 135) X("NeighborAdvertisements", 136) \
	X("Redirects", 137) X("MLDv2Reports", 143)

/* snmp6: Udp6 (9 names) and UdpLite6 (8: no IgnoredMulti). */
#define MACH_NET_UDP6_FIELDS(X) \
	X(UDP6_INDATAGRAMS, "Udp6InDatagrams") X(UDP6_NOPORTS, "Udp6NoPorts") \
	X(UDP6_INERRORS, "Udp6InErrors") X(UDP6_OUTDATAGRAMS, "Udp6OutDatagrams") \
	X(UDP6_RCVBUFERRORS, "Udp6RcvbufErrors") X(UDP6_SNDBUFERRORS, "Udp6SndbufErrors") \
	X(UDP6_INCSUMERRORS, "Udp6InCsumErrors") X(UDP6_IGNOREDMULTI, "Udp6IgnoredMulti") \
	X(UDP6_MEMERRORS, "Udp6MemErrors")
#define MACH_NET_UDPLITE6_FIELDS(X) \
	X(UDPLITE6_INDATAGRAMS, "UdpLite6InDatagrams") X(UDPLITE6_NOPORTS, "UdpLite6NoPorts") \
	X(UDPLITE6_INERRORS, "UdpLite6InErrors") X(UDPLITE6_OUTDATAGRAMS, "UdpLite6OutDatagrams") \
	X(UDPLITE6_RCVBUFERRORS, "UdpLite6RcvbufErrors") \
	X(UDPLITE6_SNDBUFERRORS, "UdpLite6SndbufErrors") \
	X(UDPLITE6_INCSUMERRORS, "UdpLite6InCsumErrors") X(UDPLITE6_MEMERRORS, "UdpLite6MemErrors")

/*
 * X(ident, "sysfs name"): struct rtnl_link_stats64 in its field order, named
 * as /sys/class/net/<if>/statistics/ names the files.
 */
#define MACH_NETDEV_STATS(X) \
	X(RX_PACKETS, "rx_packets") X(TX_PACKETS, "tx_packets") X(RX_BYTES, "rx_bytes") \
	X(TX_BYTES, "tx_bytes") X(RX_ERRORS, "rx_errors") X(TX_ERRORS, "tx_errors") \
	X(RX_DROPPED, "rx_dropped") X(TX_DROPPED, "tx_dropped") X(MULTICAST, "multicast") \
	X(COLLISIONS, "collisions") X(RX_LENGTH_ERRORS, "rx_length_errors") \
	X(RX_OVER_ERRORS, "rx_over_errors") X(RX_CRC_ERRORS, "rx_crc_errors") \
	X(RX_FRAME_ERRORS, "rx_frame_errors") X(RX_FIFO_ERRORS, "rx_fifo_errors") \
	X(RX_MISSED_ERRORS, "rx_missed_errors") X(TX_ABORTED_ERRORS, "tx_aborted_errors") \
	X(TX_CARRIER_ERRORS, "tx_carrier_errors") X(TX_FIFO_ERRORS, "tx_fifo_errors") \
	X(TX_HEARTBEAT_ERRORS, "tx_heartbeat_errors") X(TX_WINDOW_ERRORS, "tx_window_errors") \
	X(RX_COMPRESSED, "rx_compressed") X(TX_COMPRESSED, "tx_compressed") \
	X(RX_NOHANDLER, "rx_nohandler")

#define MACH__NET_ENUM(id, name) MACH_NET_##id,
#define MACH__NETDEV_ENUM(id, name) MACH_NETDEV_##id,

enum mach_net_ip { MACH_NET_IP_FIELDS(MACH__NET_ENUM) MACH_NR_NET_IP };
enum mach_net_icmp { MACH_NET_ICMP_FIELDS(MACH__NET_ENUM) MACH_NR_NET_ICMP };
enum mach_net_tcp { MACH_NET_TCP_FIELDS(MACH__NET_ENUM) MACH_NR_NET_TCP };
enum mach_net_udp { MACH_NET_UDP_FIELDS(MACH__NET_ENUM) MACH_NR_NET_UDP };
enum mach_net_tcpext { MACH_NET_TCPEXT_FIELDS(MACH__NET_ENUM) MACH_NR_NET_TCPEXT };
enum mach_net_ipext { MACH_NET_IPEXT_FIELDS(MACH__NET_ENUM) MACH_NR_NET_IPEXT };
enum mach_net_mptcp { MACH_NET_MPTCP_FIELDS(MACH__NET_ENUM) MACH_NR_NET_MPTCP };
enum mach_net_ip6 { MACH_NET_IP6_FIELDS(MACH__NET_ENUM) MACH_NR_NET_IP6 };
enum mach_net_icmp6 { MACH_NET_ICMP6_FIELDS(MACH__NET_ENUM) MACH_NR_NET_ICMP6 };
enum mach_net_udp6 { MACH_NET_UDP6_FIELDS(MACH__NET_ENUM) MACH_NR_NET_UDP6 };
enum mach_net_udplite6 { MACH_NET_UDPLITE6_FIELDS(MACH__NET_ENUM) MACH_NR_NET_UDPLITE6 };
enum mach_netdev_stat { MACH_NETDEV_STATS(MACH__NETDEV_ENUM) MACH_NR_NETDEV_STATS };

#define MACH__NET_COUNT(name, type) +1
/* How many ICMP types the Icmp: line names; how many ICMPv6 types snmp6 names. */
#define MACH_NR_NET_ICMP_TYPES (0 MACH_NET_ICMP_TYPES(MACH__NET_COUNT))
#define MACH_NR_NET_ICMP6_TYPES (0 MACH_NET_ICMP6_TYPES(MACH__NET_COUNT))

/* Name tables, per enum (src/machine/net_vocab.c). */
extern const char *const mach_net_ip_names[MACH_NR_NET_IP];
extern const char *const mach_net_icmp_names[MACH_NR_NET_ICMP];
extern const char *const mach_net_tcp_names[MACH_NR_NET_TCP];
extern const char *const mach_net_udp_names[MACH_NR_NET_UDP];
extern const char *const mach_net_tcpext_names[MACH_NR_NET_TCPEXT];
extern const char *const mach_net_ipext_names[MACH_NR_NET_IPEXT];
extern const char *const mach_net_mptcp_names[MACH_NR_NET_MPTCP];
extern const char *const mach_net_ip6_names[MACH_NR_NET_IP6];
extern const char *const mach_net_icmp6_names[MACH_NR_NET_ICMP6];
extern const char *const mach_net_udp6_names[MACH_NR_NET_UDP6];
extern const char *const mach_net_udplite6_names[MACH_NR_NET_UDPLITE6];
extern const char *const mach_netdev_stat_names[MACH_NR_NETDEV_STATS];

/** An ICMP (or ICMPv6) type the kernel prints by name, and the name. */
struct mach_net_icmp_type {
	const char *name;
	unsigned char type;
};
extern const struct mach_net_icmp_type mach_net_icmp_types[MACH_NR_NET_ICMP_TYPES];
extern const struct mach_net_icmp_type mach_net_icmp6_types[MACH_NR_NET_ICMP6_TYPES];

#endif
