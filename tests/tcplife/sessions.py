# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The workload of t_spec_tcplife.sh: two loopback sessions with known bytes
# each way. In the first the server closes first (the client closes after
# it: LAST_ACK); in the second the client does (the server after it).
# Prints "server_port client_port tx rx" for each session, from the client's
# side, then the pid.
import os
import socket
import threading


def session(to_server, to_client, server_first):
    srv = socket.socket()
    srv.bind(('127.0.0.1', 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    done = threading.Event()

    def serve():
        conn, _ = srv.accept()
        got = 0
        while got < to_server:
            d = conn.recv(65536)
            if not d:
                break
            got += len(d)
        conn.sendall(b'y' * to_client)
        if server_first:
            conn.close()
        else:
            done.wait()
            while conn.recv(65536):
                pass
            conn.close()

    t = threading.Thread(target=serve)
    t.start()
    c = socket.create_connection(('127.0.0.1', port))
    cport = c.getsockname()[1]
    c.sendall(b'x' * to_server)
    got = 0
    while got < to_client:
        d = c.recv(65536)
        if not d:
            break
        got += len(d)
    if server_first:
        while c.recv(65536):
            pass
    c.close()
    done.set()
    t.join()
    srv.close()
    print(port, cport, to_server, to_client)


session(300000, 5000, True)
session(70000, 123456, False)
print(os.getpid())
