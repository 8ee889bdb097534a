# Taint the GPU pool, then clean up an old key.
nodes gpu-1 gpu-2 nvidia.com/gpu=present:NoSchedule
node/gpu-1 tainted
node/gpu-2 tainted
nodes gpu-1 \
    dedicated=ml:NoSchedule \
    legacy-   # remove every effect of "legacy"
user@bastion:~$ kubectl --context prod taint node -l pool=spot "lifecycle=spot:PreferNoSchedule" --overwrite
nodes --all maintenance:NoExecute- && kubectl get nodes
no worker-9 'team=payments:NoSchedule' --dry-run=client
