nodes worker-1 dedicated=gpu:NoSchedul
nodes worker-1 dedicated=gpu
nodes worker-1 'unterminated=x:NoSchedule
