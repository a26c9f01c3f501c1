package dev.taskgov.admission.api;

import dev.taskgov.admission.AdmissionRuntime;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;

/**
 * What every admission-service API resource reads: the admission state, the access rules, and the request's URI and
 * headers that a signed request is verified against ({@link ApiAccess#guard()}).
 */
abstract class AdmissionApiResource {

    @Inject
    AdmissionRuntime runtime;

    @Inject
    ApiAccess access;

    @Context
    UriInfo uri;

    @Context
    HttpHeaders headers;
}
