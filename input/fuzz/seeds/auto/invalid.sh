kubectl taint nodes worker-1 dedicated=gpu:NoSchedul
kubectl taint nodes worker-1 dedicated=gpu
kubectl taint nodes worker-1 'unterminated=x:NoSchedule
