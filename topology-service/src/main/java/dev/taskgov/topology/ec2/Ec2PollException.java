package dev.taskgov.topology.ec2;

/** A poll of EC2 that did not yield a complete inventory. */
public class Ec2PollException extends RuntimeException {
    public Ec2PollException(String message, Throwable cause) {
        super(message, cause);
    }
}
