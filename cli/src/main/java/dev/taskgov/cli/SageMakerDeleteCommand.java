package dev.taskgov.cli;

import software.amazon.awssdk.services.sagemaker.SageMakerClient;

import java.util.function.Function;

/** A SageMaker Delete* command: it calls the API and says which resource is gone. */
abstract class SageMakerDeleteCommand extends ServiceCommand {

    /** Deletes by {@code call} and prints {@code KIND/ID deleted}. */
    protected int delete(String kind, String id, Function<SageMakerClient, ?> call) {
        SageMakerClients.call(endpoints, call);
        out().println(kind + "/" + id + " deleted");
        return 0;
    }
}
