package dev.taskgov.admission.api;

import dev.taskgov.admission.AdmissionRuntime;
import dev.taskgov.service.support.auth.SignedRequestResource;
import jakarta.inject.Inject;

/**
 * What every admission-service API resource reads: the admission state and the access rules that a signed request
 * is verified against ({@link ApiAccess#guard()}).
 */
abstract class AdmissionApiResource extends SignedRequestResource {

    @Inject
    AdmissionRuntime runtime;

    @Inject
    ApiAccess access;
}
