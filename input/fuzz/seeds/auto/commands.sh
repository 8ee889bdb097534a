# Taint the GPU pool, then clean up an old key.
$ kubectl taint nodes gpu-1 gpu-2 nvidia.com/gpu=present:NoSchedule
node/gpu-1 tainted
node/gpu-2 tainted
$ kubectl taint nodes gpu-1 \
    dedicated=ml:NoSchedule \
    legacy-   # remove every effect of "legacy"
user@bastion:~$ kubectl --context prod taint node -l pool=spot "lifecycle=spot:PreferNoSchedule" --overwrite
kubectl taint nodes --all maintenance:NoExecute- && kubectl get nodes
PS C:\Users\ops> kubectl taint no worker-9 'team=payments:NoSchedule' --dry-run=client
