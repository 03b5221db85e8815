// SPDX-License-Identifier: MIT
/*
 * sim_net.c - the network counters moving with the simulator's clock.
 */
#include "machine/sim_testing.h"
