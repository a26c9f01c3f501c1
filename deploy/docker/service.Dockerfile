# One image per taskgov service (quota, topology, admission, preemption, job-watcher) and the CLI
# (the compose demo), built from the module's Quarkus fast-jar. Context: the project root, after `./mvnw -B -DskipTests package`:
#   docker build -f deploy/docker/service.Dockerfile --build-arg MODULE=quota-service --build-arg PORT=8081 \
#     -t taskgov/quota-service:0.1.0 .
# docker-compose.yml and deploy/docker/build-images do this for every service.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}

# The JRE layer, word for word the same in kafka/Dockerfile, so the engine builds it once for all.
# (The slim base has no manual pages, but the JRE's alternatives link one: the folder must exist.)
RUN mkdir -p /usr/share/man/man1 \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends openjdk-17-jre-headless curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin taskgov

ARG MODULE
ARG PORT
# Quarkus fast-jar layout: libraries change least, so they come first for layer caching. Owned by
# root, read-only for the service's user.
COPY ${MODULE}/target/quarkus-app/lib/ /deployments/lib/
COPY ${MODULE}/target/quarkus-app/*.jar /deployments/
COPY ${MODULE}/target/quarkus-app/app/ /deployments/app/
COPY ${MODULE}/target/quarkus-app/quarkus/ /deployments/quarkus/

# Inside a container the service must listen beyond loopback; LANG makes the output UTF-8 (the
# CLI's arrows). SERVICE_PORT (its HTTP port, published by docker-compose.yml; empty for the CLI) is
# for the health check only: the service's own port variable, e.g. TASKGOV_QUOTA_PORT, must say the
# same when changed.
ENV TASKGOV_HTTP_HOST=0.0.0.0 \
    LANG=C.UTF-8 \
    SERVICE_PORT=${PORT} \
    JAVA_OPTS="-XX:MaxRAMPercentage=75 -Djava.util.logging.manager=org.jboss.logmanager.LogManager"
USER 10001:10001
WORKDIR /tmp
HEALTHCHECK --interval=5s --timeout=3s --start-period=300s --retries=3 \
  CMD curl -fsS -o /dev/null "http://127.0.0.1:${SERVICE_PORT}/q/health/ready" || exit 1
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /deployments/quarkus-run.jar"]
