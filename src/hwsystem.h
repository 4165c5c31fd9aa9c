/* hwsystem.h - systems: several GPUs and the interconnect between them.
 *
 * A system file (ID.system in hwdb/, docs/hwdb-format.md) names the GPU (a
 * device id of the database), how many sit in a node, the fabric inside a
 * node (nvlink, nvswitch or pcie) and its bandwidth per GPU, the network per
 * GPU between nodes and the fixed latency of a collective inside a node and
 * across nodes, optionally the bus bandwidth published nccl-tests runs
 * measured; every number with its source, as in a device file. The model
 * sees a system, or a device with an NVLink bandwidth, as a struct rl_net
 * (what collectives are predicted on, collective.h). Strings of a loaded
 * struct are owned by it and freed by rl_hwsystem_release.
 */
#ifndef RL_HWSYSTEM_H
#define RL_HWSYSTEM_H

#include <stdint.h>
#include <stdio.h>

#include "err.h"
#include "hwdb.h"
#include "op.h"

/* An interconnect as the model sees it: from a system file or from a
 * device's nvlink_bandwidth_gbs (one node, no latency known: 0). */
struct rl_net {
	const char *name;        /* the system's id or the device's, for messages */
	double intra_gbs;        /* per GPU, per direction, inside a node (GB/s) */
	double inter_gbs;        /* per GPU, per direction, between nodes; 0: none */
	double intra_latency_us; /* fixed cost of a collective inside a node */
	double inter_latency_us; /* added when it spans nodes */
	uint64_t gpus_per_node;  /* 0: not known (no limit) */
	uint64_t max_nodes;      /* 0: no limit */
};

enum rl_fabric { RL_FABRIC_NVLINK, RL_FABRIC_NVSWITCH, RL_FABRIC_PCIE };

/* Numeric keys of a system file, in documentation order. */
enum rl_sys_key {
	RL_SYS_GPUS_PER_NODE,
	RL_SYS_INTRA_BANDWIDTH_GBS, /* per GPU, per direction */
	RL_SYS_INTRA_LATENCY_US,
	RL_SYS_NODES,                 /* optional: the nodes there are */
	RL_SYS_NETWORK_BANDWIDTH_GBS, /* optional: per GPU, per direction */
	RL_SYS_INTER_LATENCY_US,      /* with the network */
	RL_SYS_NUM_COUNT
};

/* The collectives, in kind order, for the measured figures. */
#define RL_SYS_NCCL_COUNT (RL_KIND_SENDRECV - RL_KIND_ALLREDUCE + 1)

struct rl_hwsystem {
	char *id, *name, *gpu, *fabric_name, *network;
	char *path;
	enum rl_fabric fabric;
	struct rl_hwval num[RL_SYS_NUM_COUNT];
	/* "nccl.KIND_busbw_gbs" and "nccl.KIND_bytes": a published nccl-tests
	 * bus bandwidth of collective KIND at that size (bytes), index KIND -
	 * RL_KIND_ALLREDUCE; both or neither */
	struct rl_hwval nccl_busbw[RL_SYS_NCCL_COUNT];
	struct rl_hwval nccl_bytes[RL_SYS_NCCL_COUNT];
	/* A calibrated system (roofline calibrate from a recording of
	 * collectives, calsystem.h) keeps what it replaced beside the measured
	 * figures: "datasheet.KEY" for a numeric key, and
	 * "published.nccl.KIND_busbw_gbs" / "_bytes" for a published nccl-tests
	 * figure. The model reads neither. */
	struct rl_hwval datasheet[RL_SYS_NUM_COUNT];
	struct rl_hwval published_busbw[RL_SYS_NCCL_COUNT];
	struct rl_hwval published_bytes[RL_SYS_NCCL_COUNT];
};

/* Reads the system file PATH into *S (caller-owned, released with
 * rl_hwsystem_release): id, name, gpu, fabric, gpus_per_node,
 * intra_bandwidth_gbs and intra_latency_us required; network_bandwidth_gbs
 * and inter_latency_us together or not at all; every number with its source
 * and in its range. Unknown keys, a key given twice, a bad number and a
 * missing source are errors "PATH:LINE: ...". Whether gpu names a device is
 * the database's check (rl_hwdb_open). Returns 0, RL_ERR_IO or RL_ERR_PARSE. */
int rl_hwsystem_load(const char *path, struct rl_hwsystem *s, struct rl_err *err);
void rl_hwsystem_release(struct rl_hwsystem *s);

/* Visits every key S has in documentation order: FN gets the key, its value
 * text and its source (NULL for text keys). For "hw show". */
void rl_hwsystem_each(const struct rl_hwsystem *s,
                      void (*fn)(const char *key, const char *value, const char *source,
                                 void *user),
                      void *user);

/* Writes S as a system file to F: HEADER (may be NULL) as "# " comment
 * lines, then every key of rl_hwsystem_each with its source. Returns 0 or
 * RL_ERR_IO. */
int rl_hwsystem_write(FILE *f, const struct rl_hwsystem *s, const char *header);

/* The name of numeric key K ("intra_bandwidth_gbs"). */
const char *rl_hwsystem_key_name(enum rl_sys_key k);

/* S's interconnect into *NET (NET->name borrows S's id). */
void rl_hwsystem_net(const struct rl_hwsystem *s, struct rl_net *net);

/* D's interconnect into *NET: one node of GPUs joined by D's NVLink
 * (nvlink_bandwidth_gbs), latency 0 (the bound: no device file knows a
 * collective's latency). Returns 1, or 0 when D has no NVLink (*NET
 * untouched). */
int rl_hwsystem_device_net(const struct rl_device *d, struct rl_net *net);

/* The published nccl-tests bus bandwidth (GB/s) of collective kind K on S
 * and the size it was measured at (bytes): 1, or 0 when S has none. */
int rl_hwsystem_nccl(const struct rl_hwsystem *s, enum rl_kind k, double *busbw_gbs, double *bytes);

#endif
