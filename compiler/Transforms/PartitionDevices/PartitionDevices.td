//===- PartitionDevices.td - kernel-partition-devices ------*- tablegen -*-===//

#ifndef EMBER_TRANSFORMS_PARTITIONDEVICES_TD
#define EMBER_TRANSFORMS_PARTITIONDEVICES_TD

include "mlir/Pass/PassBase.td"

def KernelPartitionDevices
    : Pass<"kernel-partition-devices", "::mlir::ModuleOp"> {
  let summary = "Spread a kernel-level program over the GPUs of one host";
  let description = [{
    Assigns every `kernel.call`, `kernel.launch` and `kernel.view` a
    `device` (0 .. devices-1) and inserts `kernel.call "transfer"` (an NCCL
    send/recv pair at run time) where a buffer made on one device is read
    on another. Run after `rns-to-kernel`, before `kernel-plan-memory`
    (which then plans one arena per device).

    **Whole operations, not limbs.** Independent work goes to different
    devices: the baby-step rotations and giant-step sums of a matrix-vector
    product, the two EvalMods of a full-slot bootstrap, the branches of a
    polynomial's product tree. A chain of dependent operations stays on one
    device, since moving its buffers costs more than it saves.

    **The schedule.** List scheduling in program order (a topological
    order): each operation goes to the device where the cost model says it
    finishes first, counting the time of the transfers its operands would
    need (bytes / link bandwidth + latency; a transfer holds both devices'
    streams, as an NCCL send/recv issued in stream order does). A transfer
    is inserted right after the buffer is made, so the sender is not held
    behind unrelated work. Free operations (constants, evaluation keys,
    zeros, plaintext encodings) are cloned onto each device that reads them
    rather than moved; a view lives with its source, or is cloned over the
    source's copy. The inputs are on device 0 and the results are moved
    back to device 0.

    **Recompute over transfer** (`recompute`, on by default: on two
    H200s, with the link priced at 120 GB/s, bootstrap16 ran 24.4 ms
    against 26.8 with neither, dense1024_B 19.7 against 22.7;
    bench/RESULTS.md, "the link sweep"). A buffer
    needed on a device it is not on is made there again, by a clone of the
    kernel that made it, when that kernel's operands are all on that device
    already and the model prices the kernel below the transfer. The
    baby steps of a double-hoisted matrix-vector product are the case:
    each is one inner product over the raised digits (about 54 us at set
    B), while its two outputs over Q_l u P are two 16.8 MB transfers (about
    120 us and SMs taken from the kernels by NCCL). With it, each GPU runs
    every baby step and its share of the giant steps; the raised digits
    cross once.

    **Partial sums** (`partial-sums`, on by default). A sum kernel (a
    generated kernel that only adds its inputs: the giant steps' raised
    products of a matrix-vector product before their one ModDown) whose
    terms were made on several devices is split: each device other than
    the sum's adds the terms it holds into one partial sum (a new kernel,
    `<name>.d<device>`), and that one polynomial moves instead of every
    term. The sum's device is chosen as any op's, with the partials'
    kernels and transfers counted. dense1024_B's two sums of 30 raised
    products (16.8 MB each) are the case.

    **The cost model.** Per operation: NTT limbs, BConv and inner-product
    multiply-adds and key bytes with the key-switch model's H200 constants
    (compiler/Analysis/Cost/KeySwitchCost.h), generated kernels by the
    bytes they move; transfers by `link-gbps` and `link-latency-us`. The
    prediction simulates the devices' in-order streams with the transfers
    as rendezvous and is recorded on the function: `kernel.devices`,
    `kernel.predicted_us` (each device's finish), `kernel.one_device_us`
    (the same model on one device) and `kernel.transfer_bytes`. With
    `print`, one line per function goes to stdout.

    **Several schedules, the fastest kept.** The schedule is tried over
    2, 4, 8, ... devices up to `devices` (and `devices` itself), each with
    `comm-weight` times 1, 1/2 and 2, and in two orders: upward rank, and
    chains followed (of the ops ready, a consumer of the op just placed
    first, so that a giant step's sum, ModUp and inner product go one
    after the other instead of every sum before any rotation). The fastest
    prediction is kept, more devices only for a 1% gain: greedy list
    scheduling is erratic (bootstrap16 predicted 25.9 ms over two, 28.4
    over four; the hoisted dense1024_B kept on one GPU at weight 1 and 1.30x
    at weight 2). A program may thus use fewer devices than asked: the
    function records `kernel.devices` (the devices used) and
    `kernel.devices_requested`; `print` names the schedule kept.

    Unless the partition, plus the fixed cost of a run over several GPUs
    (`run-overhead-us`), is predicted `min-gain` faster than one device (5%
    by default: the model's margin), the program stays on one device (the
    plan of devices=1; `kernel.devices_requested` records the request). `devices=1` (the default) leaves the program unchanged.

    **partition=limbs: every polynomial's limbs split** (Cerium's
    partition; PartitionLimbs.cpp). Device d holds the Q limbs
    q[qb(d) : qb(d+1)] and the P limbs p[pb(d) : pb(d+1)] of every
    polynomial that has them: P evenly, Q at the bounds that give each
    device about the same number of (limb, op) pairs over the program (a
    program that works at low levels gives the first devices fewer limbs
    each). Each op becomes one clone per device over its share, with
    `device` set, and none on a device that holds none of its limbs:
    generated kernels (an input with no limbs there is zero: x + 0, x - 0,
    0 - x, products of zero fold away), `ntt`, `intt`, NTT-form
    `automorphism`, `ks_inner_product` (each device uploads only its rows of
    the hybrid keys: `kernel.limb_bounds`, the manifest's
    `devices.keys[d].rows`) and `concat` stay on each device's limbs.
    A `bconv` reads every limb of its input: its input is gathered first
    (each other device's piece sent by `transfer`, joined by a `concat` in
    basis order) on each device that converts to a limb it holds. Inputs
    are split from device 0 (a view and a transfer per device) and results
    gathered back to device 0; constants are encoded whole on each device
    that reads them and viewed. It needs the modulus switches expanded
    (ModUp and ModDown as `intt`, `bconv`, `ntt`, `concat`: the pipeline's
    `partition=limbs` expands them and uses hybrid key switching) and
    fails on `mod_up`, `mod_switch_down`, KLSS and BFV steps. The
    prediction is the same replay, each kernel over a share priced at its
    share of the work times 1 + (k - 1)/3 (a kernel over half the limbs
    took 0.7 of the whole on an H200) and each transfer at the link's
    price; `kernel.partition = "limbs"` marks the function.
  }];
  let options = [
    Option<"devices", "devices", "int64_t", /*default=*/"1",
           "Number of GPUs to spread the program over (1: unchanged)">,
    Option<"linkGBps", "link-gbps", "double", /*default=*/"120.0",
           "Point-to-point bandwidth between two GPUs the schedule assumes, "
           "GB/s. NCCL send/recv alone measured 358 GB/s between two H200s "
           "at 256 MB, 288 at 16 MB; inside a program (NCCL beside the "
           "kernels) 60-120 gave the fastest partitions of 60-350 tried">,
    Option<"linkLatencyUs", "link-latency-us", "double", /*default=*/"12.0",
           "Fixed cost of one transfer, microseconds">,
    Option<"commWeight", "comm-weight", "double", /*default=*/"1.0",
           "Extra weight of a choice's transfer time in the schedule's "
           "device choice (0: earliest finish alone)">,
    Option<"runOverheadUs", "run-overhead-us", "double", /*default=*/"150.0",
           "Fixed cost of a run over several GPUs (a host thread per GPU, "
           "their joins): 0.15 ms measured on two H200s">,
    Option<"minGain", "min-gain", "double", /*default=*/"0.05",
           "Keep the program on one device unless the partition is "
           "predicted this much faster (a fraction of the time)">,
    Option<"recompute", "recompute", "bool", /*default=*/"true",
           "Run a kernel again on the device that reads its result, instead "
           "of moving the result, when its operands are there and the model "
           "says it is cheaper than the transfer (false: always move)">,
    Option<"partialSums", "partial-sums", "bool", /*default=*/"true",
           "Split a sum kernel whose terms are on several devices into a "
           "partial sum per device, moving one polynomial per device instead "
           "of each term (false: the terms move)">,
    Option<"mode", "partition", "std::string",
           /*default=*/"\"operations\"",
           "operations (whole operations per device, the schedule above) "
           "or limbs (every polynomial's limbs split over all the devices; "
           "needs the expanded modulus switches, CKKS, hybrid key "
           "switching)">,
    Option<"print", "print", "bool", /*default=*/"false",
           "Print the partition's prediction of each function">,
  ];
  let dependentDialects = ["::ember::kernel::KernelDialect"];
}

#endif // EMBER_TRANSFORMS_PARTITIONDEVICES_TD
