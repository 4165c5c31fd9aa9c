#!/bin/sh
# cli_parallel.sh - roofline model --tp/--pp/--dp/--ep (parallel.c,
# modelops.c) and the communication stream of the timeline (timeline.c),
# issue 15, items 3 and 4: figures worked out by hand (docs/parallel.md,
# docs/timeline.md).
. "$top_srcdir/tests/lib.sh"

C70="$EX/llama3-70b.json"
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d <= 0.01 && d >= -0.01) }'; }
# flat: $tmp/out on one line, runs of blanks as one (the summary wraps)
flat() { tr -s '\n ' '  ' <"$tmp/out"; }

# Goal: Llama-3-70B decode, --tp 8 on hgx-h100-8. Its 69,501,714,432
# matmul weights (tests/cli_memfit.sh) in bf16 are 139,003,428,864 bytes;
# each GPU holds an eighth, 17,375,428,608, and beside them its eighth of
# the vocabulary-parallel token table (16032 x 8192) and every norm (80 x 2
# x 8192 + 8192, replicated): 17,640,734,720.
w=$((69501714432 * 2 / 8))
check "hand: 70B bf16 / 8" test "$w" -eq 17375428608
w=$((w + 2 * (16032 * 8192 + 80 * 2 * 8192 + 8192)))
check "hand: 70B bf16 per GPU of tp 8" test "$w" -eq 17640734720
run model --hw hgx-h100-8 --tp 8 --context 2048 -f json "$C70"
check "70B tp 8: runs" test "$rc" -eq 0
check "70B tp 8: per-GPU weight bytes 1/8 of the whole" grep -q "\"weight_bytes\":$w," "$tmp/out"
check "70B tp 8: fits one H100" grep -q '"device_bytes":85899345920,"fits":true}' "$tmp/out"
check "70B tp 8: the layout in json" \
	grep -q '"parallel":{"tp":8,"pp":1,"dp":1,"ep":1,"microbatches":1,"gpus":8,"nodes":1,' \
	"$tmp/out"
# each all-reduce: T x hidden = 8192 bf16 = 16384 B over 8 GPUs of one node:
# 15 us + 16384 x 2 x 7/8 / 450 GB/s = 15.0637 us; 80 of each. The logits'
# all-gather: 16032 bf16 per GPU, nccl-tests' size 8 x 32064 = 256512 B x
# 7/8 / 450 GB/s + 10.8 us (NCCL's ring latency, collective.c: 6.6 us + 7
# steps x 0.6 us, against 6.6 + 14 x 0.6 = 15 us for an all-reduce's 14) =
# 11.2988 us. 2 x 80 x 15.0637 + 11.2988 = 2421.49.
comm=$(grep -o '"communication":{[^}]*}' "$tmp/out" | grep -o '"expected_us":[0-9.e+]*' |
	cut -d: -f2)
check "70B tp 8: communication 2421.49 us" near "$comm" 2421.49
run model --hw hgx-h100-8 --tp 8 --context 2048 -f oplist "$C70"
cp "$tmp/out" "$tmp/tp8.csv"
check "oplist: two all-reduces per layer" \
	test "$(grep -c '^[a-z_]*,allreduce,bf16,1x8192,.*,80,8,1,$' "$tmp/tp8.csv")" -eq 2
check "oplist: attn_allreduce right after o_proj" \
	sh -c "grep -A1 '^o_proj,' '$tmp/tp8.csv' | tail -n 1 | grep -q '^attn_allreduce,'"
check "oplist: mlp_allreduce right after down_proj" \
	sh -c "grep -A1 '^down_proj,' '$tmp/tp8.csv' | tail -n 1 | grep -q '^mlp_allreduce,'"
# q 64 / 8 heads, k and v 8 / 8: (8 + 2) x 128 = 1280; MLP 2 x 28672 / 8
check "oplist: qkv_proj column-parallel" grep -q '^qkv_proj,matmul,bf16,1x1280x8192,' "$tmp/tp8.csv"
check "oplist: down_proj row-parallel" grep -q '^down_proj,matmul,bf16,1x8192x3584,' "$tmp/tp8.csv"
check "oplist: attention 8 heads, 1 KV head" \
	grep -q '^attention,attention,bf16,1x8x1x2048x128,,,,1,' "$tmp/tp8.csv"
check "oplist: lm_head vocab-parallel" grep -q '^lm_head,matmul,bf16,1x16032x8192,' "$tmp/tp8.csv"
check "oplist: the ranks and nodes columns" grep -q ',count,ranks,nodes,params$' "$tmp/tp8.csv"
# the round trip: classify reads the list back to the same result
run model --hw hgx-h100-8 --tp 8 --context 2048 -f csv "$C70"
cp "$tmp/out" "$tmp/model.csv"
run classify --hw hgx-h100-8 -f csv "$tmp/tp8.csv"
check "oplist round trip: classify gives the same csv" \
	sh -c "grep -q '^attn_allreduce,allreduce,' '$tmp/out' && cmp -s '$tmp/model.csv' '$tmp/out'"
check "csv: the all-reduce at 15.06 us" near "$(csv_field "$tmp/out" attn_allreduce t_us)" 15.06

# every format
run model --hw hgx-h100-8 --tp 8 --context 2048 "$C70"
check "table: the layout" grep -q '^parallel: tp 8 x pp 1 x dp 1 = 8 GPUs on 1 node (ep 1);' "$tmp/out"
check "table: the communication share" grep -q '^communication: 2421.49 us in 3 collective rows, ' \
	"$tmp/out"
check "table: the network bound" grep -q '^  network ' "$tmp/out"
run model --hw hgx-h100-8 --tp 8 --context 2048 -f md "$C70"
check "md: the layout" grep -q '^parallel: tp 8 x pp 1' "$tmp/out"
run model --hw hgx-h100-8 --tp 8 --context 2048 --timeline "$C70"
check "timeline: the blocking all-reduces are exposed" \
	grep -Eq '^cpp +2421.49 +0.00 +0.00 +2421.49 +0.00$' "$tmp/out"

# Pipeline: tp 2 x pp 4, batch 8: 4 micro-batches of 2 sequences (default
# pp), bubble 3 / 7 = 42.9 %, the step the last stage's x 7 / 4.
run model --hw hgx-h100-8 --tp 2 --pp 4 --batch 8 --context 2048 -f json "$C70"
check "pp 4: runs" test "$rc" -eq 0
gpu=$(grep -o '"parallel":{[^}]*}' "$tmp/out" | grep -o '"gpu_us":[0-9.e+]*' | cut -d: -f2)
step=$(grep -o '"parallel":{[^}]*}' "$tmp/out" | grep -o '"step_us":[0-9.e+]*' | cut -d: -f2)
check "pp 4: step = stage x (m + pp - 1) / m" \
	sh -c "test -n '$gpu' && awk -v s='$step' -v g='$gpu' 'BEGIN { d = s / (g * 7 / 4) - 1; exit !(d <= 1e-5 && d >= -1e-5) }'"
check "pp 4: bubble 3/7" grep -q '"bubble":0.428571' "$tmp/out"
run model --hw hgx-h100-8 --tp 2 --pp 4 --batch 8 --context 2048 "$C70"
flat >"$tmp/flat"
check "pp 4: the bubble line" grep -q 'bubble (pp - 1) / (m + pp - 1) = 42.9 %' "$tmp/flat"
run model --hw hgx-h100-8 --tp 2 --pp 4 --batch 8 --context 2048 -f oplist "$C70"
# 80 / 4 = 20 layers x 4 micro-batches; 2 sequences x 8192 received per micro-batch
check "pp 4: 20 layers x 4 micro-batches, weights once" \
	grep -q '^gate_up,matmul,bf16,2x28672x8192,,linear,,,bf16,,80,20,,,$' "$tmp/out"
check "pp 4: the stage's input received" grep -q '^stage_recv,sendrecv,bf16,2x8192,.*,4,,2,1,$' "$tmp/out"
# the last stage's 20 layers' norms, held once whatever the micro-batches
check "pp 4: the stage's norms, 20 x 8192, once" \
	grep -q '^attn_norm,layernorm,bf16,2x8192,,,,,,,80,,,,163840$' "$tmp/out"
check "pp 4: no embedding on the last stage" sh -c "test -s '$tmp/out' && ! grep -q '^embed,' '$tmp/out'"
run model --hw hgx-h100-8 --pp 4 --microbatches 8 --batch 8 "$C70"
flat >"$tmp/flat"
check "--microbatches 8: bubble 3 / 11" grep -q '= 27.3 %' "$tmp/flat"

# --tp-comm-overlap: the tensor-parallel all-reduces written with overlap=1
# (the op list's column), so the timeline runs them beside the compute: the
# step falls, but never below the GPU's compute nor the communication
run model --hw hgx-h100-8 --tp 8 --batch 64 --context 2048 -f oplist "$C70"
check "tp: no overlap column by default" sh -c "! head -n 2 '$tmp/out' | grep -q ',overlap'"
run model --hw hgx-h100-8 --tp 8 --batch 64 --context 2048 --tp-comm-overlap -f oplist "$C70"
check "tp-comm-overlap: the all-reduces overlap=1" \
	sh -c "grep -q '^attn_allreduce,allreduce,.*,80,8,1,1,\$' '$tmp/out' && grep -q '^mlp_allreduce,allreduce,.*,80,8,1,1,\$' '$tmp/out'"
cp "$tmp/out" "$tmp/ov.csv"
tlv() { grep -o '"cpp":{[^}]*}' "$tmp/out" | grep -o "\"$1\":[0-9.e+]*" | cut -d: -f2; }
run model --hw hgx-h100-8 --tp 8 --batch 64 --context 2048 --timeline -f json "$C70"
s0=$(tlv step_us)
run model --hw hgx-h100-8 --tp 8 --batch 64 --context 2048 --tp-comm-overlap --timeline -f json "$C70"
s1=$(tlv step_us); busy=$(tlv gpu_busy_us); comm=$(tlv comm_us); hid=$(tlv comm_hidden_us)
check "tp-comm-overlap: the step falls ($s1 < $s0), by what is hidden ($hid)" \
	awk -v a="$s1" -v b="$s0" -v h="$hid" 'BEGIN { exit !(a < b && h > 0) }'
check "tp-comm-overlap: never below the compute ($busy) nor the communication ($comm)" \
	awk -v s="$s1" -v b="$busy" -v c="$comm" 'BEGIN { exit !(s >= b && s >= c) }'
run classify --hw hgx-h100-8 --timeline -f json "$tmp/ov.csv"
check "tp-comm-overlap: the op list read back, the same step" test "$(tlv step_us)" = "$s1"
expect_error "--tp-comm-overlap without --tp" 1 'no tensor-parallel communication to overlap without --tp above 1' \
	model --hw hgx-h100-8 --pp 2 --tp-comm-overlap "$C70"

# saved: the json's saved activations of a training step
saved() { awk 'BEGIN { RS = "," } /"saved_activation_bytes"/ { sub(/.*:/, ""); print; exit }' "$tmp/out"; }

# The interleaved schedule: Llama-3-70B's 80 layers at pp 4, m 8, V 2:
# bubble 3 / (16 + 3) = 15.8 %, the step the last stage's x 19 / 16, and
# each micro-batch received twice (stage_recv count 8 x 2 = 16)
run model --hw hgx-h100-8 --pp 4 --microbatches 8 --virtual-stages 2 --batch 8 -f json "$C70"
check "interleaved: runs" test "$rc" -eq 0
gpu=$(grep -o '"parallel":{[^}]*}' "$tmp/out" | grep -o '"gpu_us":[0-9.e+]*' | cut -d: -f2)
step=$(grep -o '"parallel":{[^}]*}' "$tmp/out" | grep -o '"step_us":[0-9.e+]*' | cut -d: -f2)
check "interleaved: step = stage x (v m + pp - 1) / (v m)" \
	sh -c "test -n '$gpu' && awk -v s='$step' -v g='$gpu' 'BEGIN { d = s / (g * 19 / 16) - 1; exit !(d <= 1e-5 && d >= -1e-5) }'"
check "interleaved: bubble 3/19" grep -q '"bubble":0.157895' "$tmp/out"
check "interleaved: virtual_stages in json" grep -q '"virtual_stages":2,' "$tmp/out"
run model --hw hgx-h100-8 --pp 4 --microbatches 8 --virtual-stages 2 --batch 8 "$C70"
flat >"$tmp/flat"
check "interleaved: the pipeline line" \
	grep -q 'pipeline: 4 stages of 20 layers in 2 interleaved chunks, 8 micro-batches of 1 sequence: bubble (pp - 1) / (v m + pp - 1) = 15.8 %' "$tmp/flat"
run model --hw hgx-h100-8 --pp 4 --microbatches 8 --virtual-stages 2 --batch 8 -f oplist "$C70"
check "interleaved: each chunk receives its input" \
	grep -q '^stage_recv,sendrecv,bf16,1x8192,.*,16,,2,1,$' "$tmp/out"
expect_error "--virtual-stages without --pp" 1 '--virtual-stages 2: the interleaved schedule needs --pp above 1' \
	model --hw hgx-h100-8 --tp 2 --virtual-stages 2 "$C70"
expect_error "--virtual-stages: pp x v must divide the layers" 1 'pp x v = 12 does not divide the 80 layers' \
	model --hw hgx-h100-8 --pp 4 --virtual-stages 3 --microbatches 8 --batch 8 "$C70"
expect_error "--virtual-stages: micro-batches in groups of pp" 1 '6 micro-batches are not a multiple of --pp 4' \
	model --hw hgx-h100-8 --pp 4 --virtual-stages 2 --microbatches 6 --batch 6 "$C70"
# memory: GPT-2's 12 layers at pp 2, m 8, V 3: the first stage holds
# (2 + 2 x 2 + 1) / 3 = 7 / 3 micro-batches' activations against 1F1B's 2
run model --hw hgx-h100-8 --pp 2 --microbatches 8 --batch 16 --seq 1024 --train -f json "$EX/gpt2.json"
p1=$(saved)
run model --hw hgx-h100-8 --pp 2 --microbatches 8 --virtual-stages 3 --batch 16 --seq 1024 --train -f json "$EX/gpt2.json"
p3=$(saved)
check "interleaved memory: 7 / 6 of 1F1B's ($p3 / $p1)" \
	awk -v a="$p3" -v b="$p1" 'BEGIN { d = a / b / (7 / 6) - 1; exit !(b > 0 && d < 1e-9 && d > -1e-9) }'

# Expert parallel: Mixtral, dp 8 x ep 8, prefill 64 x 128: one expert per
# GPU over 8 x 1024 x 2 / 8 = 2048 tokens, the all-to-alls of 1024 x 2 tokens
run model --hw hgx-h100-8 --dp 8 --ep 8 --batch 64 --seq 128 --phase prefill -f oplist \
	"$EX/mixtral-8x7b.json"
check "ep 8: one expert a GPU" grep -q '^expert_gate_up,matmul,bf16,2048x28672x4096,.*,32,32,,,$' "$tmp/out"
check "ep 8: dispatch all-to-all" grep -q '^expert_dispatch,alltoall,bf16,2048x4096,.*,32,,8,1,$' "$tmp/out"
check "ep 8: combine all-to-all" grep -q '^expert_combine,alltoall,bf16,2048x4096,.*,32,,8,1,$' "$tmp/out"

# Data parallel at inference: the batch divided, no collective
run model --dp 4 --batch 8 -f oplist "$EX/llama3-8b.json"
check "dp 4 inference: 2 sequences a GPU" grep -q '^embed,copy,bf16,2x4096,' "$tmp/out"
check "dp 4 inference: no collective" sh -c "test -s '$tmp/out' && ! grep -q 'allreduce' '$tmp/out'"

# Overlap in the timeline, on an op list worked by hand (--best-case on
# hgx-h100-8, cpp: 3 us a launch): each pointwise row moves 3.35 GB at
# 3350 GB/s, 1000 us; the all-reduce of 225e6 bf16 over 2 GPUs is 7.8 us
# (NCCL's ring latency: 6.6 us + 2 steps x 0.6 us) + 450 MB / 450 GB/s =
# 1007.8 us. bwd1 runs 3-1003; the gradients' all-reduce (overlap=1)
# 1003-2010.8 beside bwd2 (1003-3003); the optimizer after it, 3003-4003:
# step 4003, the 1007.8 us hidden.
cat >"$tmp/ov.csv" <<'CSV'
name,kind,dtype,shape,flops,bytes,phase,ranks,overlap,count
bwd1,pointwise,bf16,1,0,3350000000,backward,,,1
grad_ar,allreduce,bf16,225000000,,,backward,2,1,1
bwd2,pointwise,bf16,1,0,3350000000,backward,,,2
adam,pointwise,bf16,1,0,3350000000,optimizer,,,1
CSV
run classify --hw hgx-h100-8 --best-case --timeline "$tmp/ov.csv"
check "overlap: step 4003 us" grep -Eq '^cpp +3.00 us +4003.00 +4000.00 +3.00 ' "$tmp/out"
check "overlap: all hidden" grep -Eq '^cpp +1007.80 +1007.80 +1007.80 +0.00 +0.00$' "$tmp/out"
check "overlap: the graph lane, 4000 + 5 x 0.05" grep -Eq '^graph +0.05 us +4000.25 ' "$tmp/out"
# three times the gradients: 7.8 + 1350 MB / 450 GB/s = 3007.8 us,
# 1003-4010.8; the optimizer waits for it (1007.8 us stalled) and runs
# 4010.8-5010.8
sed 's/225000000/675000000/' "$tmp/ov.csv" >"$tmp/ov2.csv"
run classify --hw hgx-h100-8 --best-case --timeline "$tmp/ov2.csv"
check "stall: step 5010.8 us" grep -Eq '^cpp +3.00 us +5010.80 +4000.00 +1010.80 ' "$tmp/out"
check "stall: 2000 hidden, 1007.8 exposed" \
	grep -Eq '^cpp +3007.80 +3007.80 +2000.00 +1007.80 +1007.80$' "$tmp/out"
run classify --hw hgx-h100-8 --best-case --timeline -f json "$tmp/ov2.csv"
check "stall: json" grep -q '"comm_us":3007.8,"comm_overlap_us":3007.8,"comm_hidden_us":2000,"comm_exposed_us":1007.8,"comm_stall_us":1007.8' "$tmp/out"
# overlap=0 (the default): the all-reduce blocks, 1003-2010.8, all exposed
sed 's/,2,1,1$/,2,0,1/' "$tmp/ov.csv" >"$tmp/ov3.csv"
run classify --hw hgx-h100-8 --best-case --timeline "$tmp/ov3.csv"
check "blocking: step 1003 + 1007.8 + 3000" grep -Eq '^cpp +3.00 us +5010.80 ' "$tmp/out"
check "blocking: all exposed" grep -Eq '^cpp +1007.80 +0.00 +0.00 +1007.80 +0.00$' "$tmp/out"

# Training memory under 1F1B (docs/parallel.md): the saved activations are
# linear in a micro-batch's sequences, and at most min(m, pp) micro-batches
# are in flight on the first stage (one without stages). GPT-2, batch 16 of
# 1024 tokens: --microbatches 4 alone keeps one micro-batch of 4 sequences,
# a quarter of the whole batch's; --pp 4 at m = 8 keeps 4 micro-batches of 2
# sequences on the first stage, half of m = 4's 4 of 4 sequences; and m = 2
# keeps both of its 8 sequences, as m = 4 does (16 sequence-passes of the
# stage's layers each)
run model --hw hgx-h100-8 --batch 16 --seq 1024 --train -f json "$EX/gpt2.json"
s1=$(saved)
run model --hw hgx-h100-8 --microbatches 4 --batch 16 --seq 1024 --train -f json "$EX/gpt2.json"
sa=$(saved)
run model --hw hgx-h100-8 --pp 4 --microbatches 8 --batch 16 --seq 1024 --train -f json "$EX/gpt2.json"
s8=$(saved)
run model --hw hgx-h100-8 --pp 4 --microbatches 4 --batch 16 --seq 1024 --train -f json "$EX/gpt2.json"
s4=$(saved)
run model --hw hgx-h100-8 --pp 4 --microbatches 2 --batch 16 --seq 1024 --train -f json "$EX/gpt2.json"
s2=$(saved)
check "1F1B: gradient accumulation keeps one micro-batch ($sa x 4 = $s1)" \
	awk -v a="$sa" -v b="$s1" 'BEGIN { exit !(a > 0 && a * 4 == b) }'
check "1F1B: pp 4 at m 8 keeps half of m 4's ($s8 x 2 = $s4)" \
	awk -v a="$s8" -v b="$s4" 'BEGIN { exit !(a > 0 && a * 2 == b) }'
check "1F1B: pp 4 at m 2 keeps both, as much as m 4's ($s2 = $s4)" test "$s2" = "$s4"
check "1F1B: a stage's share is under the whole batch's ($s4 < $s1)" \
	awk -v a="$s4" -v b="$s1" 'BEGIN { exit !(a < b) }'

# A data-parallel training step: GPT-2, dp 8 on hgx-h100-8. Its weights,
# every one trained (tests/cli_model.sh: 124,439,808, the matmuls' and the
# position table, norms and biases), are as many bf16 gradients; DDP buckets
# of 25 MiB = 13,107,200 of them: 9 full and a last of 6,475,008. A full
# bucket: 15 us + 26214400 B x 7/4 / 450 GB/s = 116.94 us; the last 15 +
# 12950016 x 7/4 / 450e3 = 65.36 us.
run model --hw hgx-h100-8 --dp 8 --batch 64 --seq 1024 --train --timeline -f json "$EX/gpt2.json"
check "dp train: runs" test "$rc" -eq 0
# (json gives the bus bytes: 26214400 x 7/4 = 45875200, 12950016 x 7/4 =
# 22662528)
full=$(grep -o '"name":"grad_allreduce"[^}]*' "$tmp/out" | grep '"bytes":45875200,' |
	grep -o '"count":[0-9]*' | cut -d: -f2 | awk '{ s += $1 } END { print s }')
check "dp train: 9 full buckets" test "$full" = 9
check "dp train: the last bucket" \
	grep -q '"name":"grad_allreduce","kind":"allreduce","dtype":"bf16","phase":"backward","count":1,"flops":0,"bytes":22662528,' \
	"$tmp/out"
run model --hw hgx-h100-8 --dp 8 --batch 64 --seq 1024 --train --timeline "$EX/gpt2.json"
# all but the last bucket hidden under backward: 9 x 116.94 = 1052.50 us
check "dp train, one node: hidden under backward but the last bucket" \
	grep -Eq '^cpp +1117.87 +1117.87 +1052.50 +65.36 +65.36$' "$tmp/out"
# across two nodes on a 25 GB/s network, tp 8 x dp 2 of Llama-3-8B: the
# all-reduce outlasts the backward pass, and the optimizer stalls
run model --hw "$DATA/two-h100-nodes.system" --tp 8 --dp 2 --batch 2 --seq 512 --train \
	--timeline -f json "$EX/llama3-8b.json"
stall=$(grep -o '"cpp":{[^}]*}' "$tmp/out" | grep -o '"comm_stall_us":[0-9.e+]*' | cut -d: -f2)
hidden=$(grep -o '"cpp":{[^}]*}' "$tmp/out" | grep -o '"comm_hidden_us":[0-9.e+]*' | cut -d: -f2)
check "dp train, two nodes: the stall shows" awk -v s="$stall" -v h="$hidden" 'BEGIN { exit !(s > h && s > 1000) }'

# the README's example: every line it shows is the program's output
awk '$0 == "$ roofline model --hw hgx-h100-8 --tp 8 --context 2048 --timeline examples/llama3-70b.json" {
	on = 1; next } on && /^```/ { exit } on && $0 != "..." { print }' "$top_srcdir/README.md" >"$tmp/want"
(cd "$top_srcdir" && "$ROOFLINE" model --hw hgx-h100-8 --tp 8 --context 2048 --timeline \
	examples/llama3-70b.json) >"$tmp/got"
check "README: the parallel example is there" test "$(wc -l <"$tmp/want")" -gt 10
check "README: its lines are the program's output" \
	sh -c "grep -vxFf '$tmp/got' '$tmp/want' | { ! grep -q .; }"

# errors
expect_error "--tp 3: does not divide 64 heads" 1 '--tp 3 does not divide the 64 attention heads' \
	model --hw hgx-h100-8 --tp 3 "$C70"
expect_error "--tp 16 on 8 GPUs a node" 1 'tp must divide it' model --hw hgx-h100-8 --tp 16 "$C70"
expect_error "--pp 81 > 80 layers" 1 '--pp 81 is more than the 80 layers' \
	model --hw hgx-h100-8 --pp 81 "$C70"
expect_error "--ep on a dense model" 1 'has no experts' model --hw hgx-h100-8 --dp 2 --ep 2 \
	--batch 2 "$C70"
expect_error "--ep 3 of 8 experts" 1 '--ep 3 does not divide the 8 experts' \
	model --hw hgx-h100-8 --dp 3 --ep 3 --batch 3 "$EX/mixtral-8x7b.json"
expect_error "--dp 3 of batch 4" 1 '--dp 3 does not divide --batch 4' \
	model --hw hgx-h100-8 --dp 3 --batch 4 "$C70"
expect_error "--tp on a device without interconnect" 1 \
	'--tp 2: the device has no interconnect .*--hw hgx-h100-8' model --hw h100-pcie --tp 2 "$C70"
expect_error "--tp 8 x --dp 4 on two nodes" 1 'need 4 nodes of 8 GPUs; two-h100-nodes has 2' \
	model --hw "$DATA/two-h100-nodes.system" --tp 8 --dp 4 --batch 4 "$C70"
expect_error "--tp 0" 2 "--tp: '0' is not an integer from 1" model --tp 0 "$C70"
expect_error "--pp x" 2 "--pp: 'x' is not an integer" model --pp x "$C70"
expect_error "--pp with --max-batch" 2 '--max-batch takes each GPU' model --pp 2 --max-batch "$C70"
expect_error "--timeline with csv" 2 '--timeline needs' model --timeline -f csv "$C70"
expect_error "overlap on a matmul" 1 "column 'overlap': only collective ops take it" \
	classify "$DATA/overlap-matmul.csv"

# sequence parallelism (Korthikanti et al. 2022, section 4.2.2): with tp 8
# each GPU holds T / 8 of the 8 x 2048 tokens of the norms and residuals;
# each all-reduce becomes a reduce-scatter of the T x H output and an
# all-gather of the T / 8 x H shards before the next column-parallel matmul
# (and once before the head), the same bus bytes; in backward each one's
# conjugate
run model --hw hgx-h100-8 --train --batch 8 --seq 2048 --tp 8 --sp -f oplist "$C70"
shape() { awk -F, -v n="$1" '$1 == n { print $2 " " $4; exit }' "$tmp/out"; }
check "--sp: the norms over T / 8 tokens" test "$(shape attn_norm)" = "layernorm 2048x8192"
check "--sp: the residuals too" test "$(shape mlp_residual)" = "pointwise 2048x8192"
check "--sp: the matmuls over every token" test "$(shape qkv_proj)" = "matmul 16384x1280x8192"
check "--sp: the row-parallel output reduce-scattered" test "$(shape attn_allreduce)" = "reducescatter 16384x8192"
check "--sp: the shards all-gathered before the qkv" test "$(shape attn_allgather)" = "allgather 2048x8192"
check "--sp: and before the head" test "$(shape head_allgather)" = "allgather 2048x8192"
spbus() {
	run model --hw hgx-h100-8 --train --batch 8 --seq 2048 --tp 8 "$@" -f json "$C70"
	python3 -c 'import json, sys
ops = json.load(open(sys.argv[1]))["ops"]
k = {}
for o in ops:
    if o["kind"] in ("allreduce", "allgather", "reducescatter") and not o["name"].startswith("loss_allreduce"):
        k[o["phase"] + " " + o["kind"]] = k.get(o["phase"] + " " + o["kind"], 0) + o["count"] * o["bytes"]
print(" ".join("%s=%.6g" % (a, k[a]) for a in sorted(k)))' "$tmp/out"
}
# 2 x 80 layers' all-reduces of 16384 x 8192 bf16, 2 x 7/8 x 268 MB on the
# bus each; with --sp 160 reduce-scatters and 161 all-gathers of 7/8 x 268
# MB, each backward the other
ar=$(awk 'BEGIN { printf "%.6g", 160 * 2 * 7 / 8 * 16384 * 8192 * 2 }')
half=$(awk 'BEGIN { printf "%.6g", 160 * 7 / 8 * 16384 * 8192 * 2 }')
half1=$(awk 'BEGIN { printf "%.6g", 161 * 7 / 8 * 16384 * 8192 * 2 }')
check "--tp 8: 160 all-reduces a pass" test "$(spbus)" = "backward allreduce=$ar forward allreduce=$ar"
check "--tp 8 --sp: reduce-scatters and all-gathers of the same bus bytes, conjugate in backward" \
	test "$(spbus --sp)" = "backward allgather=$half backward reducescatter=$half1 forward allgather=$half1 forward reducescatter=$half"
expect_error "--sp without --tp" 1 "--sp: sequence parallelism splits the tokens over the tensor-parallel group: it needs --tp above 1" \
	model --hw hgx-h100-8 --sp "$C70"
expect_error "--sp over 3 tokens" 1 "--sp: the step's 3 tokens .a micro-batch's. do not split over tp 2" \
	model --hw hgx-h100-8 --batch 3 --tp 2 --sp "$C70"
expect_error "--sp with --impl hf" 1 "--sp: sequence parallelism is Megatron's fused block: not with --impl hf" \
	model --hw hgx-h100-8 --batch 4 --tp 2 --sp --impl hf "$C70"

# ZeRO (Rajbhandari et al. 2020, Figure 1): Llama-3-8B's 8,030,261,248
# weights (bf16: 14.96 GiB), AdamW's two fp32 states (59.83 GiB), bf16
# gradients (14.96 GiB), over dp 8: stage 1 keeps an eighth of the states,
# 2 of the gradients too, 3 of the weights too; the activations stay
L8="$EX/llama3-8b.json"
zmem() {
	run model --hw hgx-h100-8 --train --batch 8 --seq 2048 --dp 8 "$@" -f json "$L8"
	python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["summary"]["memory"]
print("%.2f %.2f %.2f" % tuple(m[k] / 2**30 for k in ("weight_bytes", "gradient_bytes", "optimizer_bytes")))' "$tmp/out"
}
P8=8030261248
want() { awk -v p=$P8 -v w="$1" -v g="$2" -v o="$3" 'BEGIN { printf "%.2f %.2f %.2f", 2 * p / w / 2^30, 2 * p / g / 2^30, 8 * p / o / 2^30 }'; }
check "--zero 0: weights, gradients, optimizer state whole" test "$(zmem)" = "$(want 1 1 1)"
check "--zero 1: the optimizer state / 8" test "$(zmem --zero 1)" = "$(want 1 1 8)"
check "--zero 2: and the gradients / 8" test "$(zmem --zero 2)" = "$(want 1 8 8)"
check "--zero 3: and the weights / 8" test "$(zmem --zero 3)" = "$(want 8 8 8)"
# communication: stages 1 and 2 reduce-scatter the gradients and all-gather
# the updated weights (the all-reduce's volume, section 7.2.1); stage 3
# gathers the weights again for backward: 1.5 times it (section 7.2.2)
zcomm() {
	run model --hw hgx-h100-8 --train --batch 8 --seq 2048 --dp 8 "$@" -f json "$L8"
	python3 -c 'import json, sys
ops = json.load(open(sys.argv[1]))["ops"]
k = {}
for o in ops:
    if o["kind"] in ("allreduce", "allgather", "reducescatter"):
        k[o["kind"]] = k.get(o["kind"], 0) + o["count"] * o["bytes"]
print(" ".join("%s=%.4g" % (a, k[a] / 1e9) for a in sorted(k)))' "$tmp/out"
}
# (json's bytes are the bus bytes, nccl-tests': 2 (n - 1) / n x S for an
# all-reduce, (n - 1) / n x S for an all-gather or reduce-scatter; S = 2 B
# x the weights = 16.06 GB)
ar=$(awk -v p=$P8 'BEGIN { printf "%.4g", 2 * 7 / 8 * 2 * p / 1e9 }')
ag=$(awk -v p=$P8 'BEGIN { printf "%.4g", 7 / 8 * 2 * p / 1e9 }')
ag2=$(awk -v p=$P8 'BEGIN { printf "%.4g", 2 * 7 / 8 * 2 * p / 1e9 }')
check "--zero 0: the gradients all-reduced ($ar GB on the bus)" test "$(zcomm)" = "allreduce=$ar"
check "--zero 1: reduce-scattered, the weights all-gathered ($ag GB each)" \
	test "$(zcomm --zero 1)" = "allgather=$ag reducescatter=$ag"
check "--zero 3: the weights gathered twice ($ag2 GB), the gradients reduce-scattered" \
	test "$(zcomm --zero 3)" = "allgather=$ag2 reducescatter=$ag"
# each rank steps its shard: the optimizer's kernels move an eighth of the
# bytes (multi_tensor_apply's chunks an eighth, the launches the same)
zopt() {
	run model --hw hgx-h100-8 --train --batch 8 --seq 2048 --dp 8 "$@" -f json "$L8"
	python3 -c 'import json, sys
ops = json.load(open(sys.argv[1]))["ops"]
print("%.6g" % sum(o["count"] * o["bytes"] for o in ops if o.get("phase") == "optimizer" and o["kind"] != "allgather"))' "$tmp/out"
}
o0=$(zopt) o1=$(zopt --zero 1)
check "--zero 1: the optimizer's bytes an eighth ($o1 of $o0)" \
	awk -v a="$o0" -v b="$o1" 'BEGIN { exit !(a > 0 && (b * 8 - a) ^ 2 <= (1e-4 * a) ^ 2) }'
expect_error "--zero without --dp" 1 "--zero 1: ZeRO shards a training step's state over the data-parallel ranks: it needs --train and --dp above 1" \
	model --hw hgx-h100-8 --train --zero 1 "$L8"
expect_error "--zero without --train" 1 "it needs --train and --dp above 1" \
	model --hw hgx-h100-8 --dp 2 --batch 2 --zero 2 "$L8"
expect_error "--zero 4" 2 "--zero: '4' is not a stage 0 to 3" model --zero 4 "$L8"

done_testing
